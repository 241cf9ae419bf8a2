"""What the user asked to see: suppressions, severity overrides and selection, in one place.

Linting stamps every diagnostic with its rule's code and severity; this module then, per file:

1. drops what an in-file directive suppresses (never a syntax error) and notes which directive
   selectors were used, reporting the unused ones (DN901) and bad directives (DN902-DN904);
2. applies severity overrides (config, then ``--severity-override``; the longest prefix wins);
3. keeps only the selected rules: the longest matching selector decides, and on a tie between
   ``select`` and ``ignore`` the rule is ignored (so ``--select DN2 --ignore DN203`` and
   ``--ignore DN2 --extend-select DN203`` both do what they say). Syntax errors always stay.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from dnlint.diagnostics import Diagnostic, Severity, replace
from dnlint.records import NamedTuple
from dnlint.result import FileResult
from dnlint.rules import OPT_IN
from dnlint.settings.config import Config
from dnlint.settings.selectors import is_syntax_error, selector_matches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dnlint.settings.directives import Scope


class Policy(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    """The command line's share: it beats the configuration file."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity_override: tuple[tuple[str, Severity], ...] = ()
    directives: bool = True
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # globs from the cwd


class Selection(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    overrides: tuple[tuple[str, Severity], ...]
    directives: bool = True
    # the opt-in family (OPT_IN: the recipe, DN7xx) is checked and shown: selected by a
    # selector that names it (DN7, DN70, DN701; never DN or ALL), or recipe = true
    recipe: bool = False

    def enabled(self, code: str) -> bool:
        select = self.select
        if code.startswith(OPT_IN):
            if not self.recipe:
                return False
            select = tuple(s for s in select if s.startswith(OPT_IN))  # never by DN or ALL
        chosen = _longest(select, code)
        return chosen >= 0 and chosen > _longest(self.ignore, code)

    def severity(self, code: str, default: Severity) -> Severity:
        best, level = -1, default
        for selector, override in self.overrides:  # later entries win ties: CLI after config
            if selector_matches(selector, code) and len(selector) >= best:
                best, level = len(selector), override
        return level


def names_opt_in(selectors: tuple[str, ...]) -> bool:
    """Whether a selector names the opt-in family itself (``DN7``, ``DN701``), not a prefix
    of every rule (``DN``)."""
    return any(selector.startswith(OPT_IN) for selector in selectors)


def _longest(selectors: tuple[str, ...], code: str) -> int:
    return max((len(s) for s in selectors if selector_matches(s, code)), default=-1)


def selection_for(path: str, policy: Policy, config: Config | None) -> Selection:
    """Merge the command line with the configuration that applies to ``path``."""
    select = policy.select or (config.select if config and config.select is not None else None)
    chosen = select if select is not None else ("DN",)
    extend = (config.extend_select if config else ()) + policy.extend_select
    ignore = (config.ignore + config.ignores_for(path) if config else ()) + policy.ignore
    if policy.per_file_ignores:
        ignore += Config(per_file_ignores=policy.per_file_ignores).ignores_for(path)
    overrides = (config.severity_override if config else ()) + policy.severity_override
    if config is not None and config.recipe:
        extend += (OPT_IN,)  # recipe = true: the whole family, as --extend-select DN7
    return Selection(chosen + extend, ignore, overrides, policy.directives,
                     names_opt_in(chosen + extend))


def apply_policy(result: FileResult, selection: Selection) -> None:
    """Rewrite ``result.diagnostics`` in place: suppressed, re-levelled, selected, sorted."""
    diagnostics = result.diagnostics  # read, never changed: a copy per file cost 8 bytes a finding
    if selection.directives and result.document is not None:
        diagnostics = _suppress(diagnostics, result)
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        if is_syntax_error(diagnostic.code, diagnostic.severity):
            kept.append(diagnostic)
            continue
        if not selection.enabled(diagnostic.code):
            continue
        level = selection.severity(diagnostic.code, diagnostic.severity)
        kept.append(diagnostic if level is diagnostic.severity else replace(diagnostic,
                                                                            severity=level))
    kept.sort(key=Diagnostic.sort_key)
    result.diagnostics = kept


def _suppress(diagnostics: list[Diagnostic], result: FileResult) -> list[Diagnostic]:
    assert result.document is not None
    if not result.document.may_hold_directives():
        return diagnostics
    from dnlint.settings.directives import parse_directives  # only for a file that spells "dnlint"

    found = parse_directives(result.document, result.path)
    from dnlint.diagnostics import with_ends

    if not found.scopes:  # the common file: nothing to suppress
        return diagnostics + with_ends(found.problems.sorted(), result.document.lines)
    index = _ScopeIndex(found.scopes)
    candidates = [d for d in diagnostics if not is_syntax_error(d.code, d.severity)]
    index.mark_used(candidates)
    kept = [d for d in diagnostics
            if is_syntax_error(d.code, d.severity) or not index.suppresses(d)]
    for scope in found.scopes:
        if not scope.used:
            found.problems.report("DN901", scope.line, scope.column,
                                  f"suppression of {scope.selector} suppresses nothing",
                                  "delete the directive")
    kept += with_ends(found.problems.sorted(), result.document.lines)
    return kept


class _ScopeIndex:
    """The scopes by selector, as sorted line intervals: each question is a binary search.

    Testing every diagnostic against every scope was quadratic (28 s for 8000 directives
    each before a finding). A code is matched by its prefixes (DN, DN1, DN10, DN103), so a
    diagnostic looks up at most len(code) selectors.
    """

    def __init__(self, scopes: list[Scope]) -> None:
        self._by_selector: dict[str, list[Scope]] = {}
        for scope in scopes:
            self._by_selector.setdefault(scope.selector, []).append(scope)
        self._whole_file = {sel for sel, group in self._by_selector.items()
                            if any(scope.start == 0 for scope in group)}
        self._union: dict[str, tuple[list[int], list[int]]] = {
            sel: _union(group) for sel, group in self._by_selector.items()}

    def _selectors(self, code: str) -> list[str]:
        return [code[:n] for n in range(1, len(code) + 1) if code[:n] in self._by_selector]

    def suppresses(self, diagnostic: Diagnostic) -> bool:
        line = diagnostic.line
        for selector in self._selectors(diagnostic.code):
            if selector in self._whole_file:
                return True
            if line is not None:
                starts, ends = self._union[selector]
                at = bisect_right(starts, line) - 1
                if at >= 0 and ends[at] >= line:
                    return True
        return False

    def mark_used(self, diagnostics: list[Diagnostic]) -> None:
        """A scope is used when it covers at least one of ``diagnostics``."""
        lines: dict[str, list[int]] = {}
        fileless: set[str] = set()
        for diagnostic in diagnostics:
            for selector in self._selectors(diagnostic.code):
                if diagnostic.line is None:
                    fileless.add(selector)
                else:
                    lines.setdefault(selector, []).append(diagnostic.line)
        for selector, group in self._by_selector.items():
            found = sorted(lines.get(selector, ()))
            for scope in group:
                if scope.start == 0:
                    scope.used = scope.used or bool(found) or selector in fileless
                    continue
                at = bisect_left(found, scope.start)
                if at < len(found) and found[at] <= scope.end:
                    scope.used = True


def _union(scopes: list[Scope]) -> tuple[list[int], list[int]]:
    """The lines ``scopes`` cover, as disjoint sorted intervals (starts, ends)."""
    starts: list[int] = []
    ends: list[int] = []
    for scope in sorted(scopes, key=lambda s: s.start):
        if scope.end < scope.start:
            continue  # a range enabled again on the next line covers nothing
        if ends and scope.start <= ends[-1] + 1:
            ends[-1] = max(ends[-1], scope.end)
        else:
            starts.append(scope.start)
            ends.append(scope.end)
    return starts, ends
