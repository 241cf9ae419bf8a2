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

import re
from dataclasses import replace
from typing import NamedTuple

from dnlint.config import Config
from dnlint.diagnostics import Diagnostic, Severity, new_diagnostic
from dnlint.directives import is_syntax_error, parse_directives, selector_matches
from dnlint.result import FileResult


class Policy(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    """The command line's share: it beats the configuration file."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity_override: tuple[tuple[str, Severity], ...] = ()
    directives: bool = True


class Selection(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~1 ms less start-up
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    overrides: tuple[tuple[str, Severity], ...]
    directives: bool = True

    def enabled(self, code: str) -> bool:
        chosen = _longest(self.select, code)
        return chosen >= 0 and chosen > _longest(self.ignore, code)

    def severity(self, code: str, default: Severity) -> Severity:
        best, level = -1, default
        for selector, override in self.overrides:  # later entries win ties: CLI after config
            if selector_matches(selector, code) and len(selector) >= best:
                best, level = len(selector), override
        return level


def _longest(selectors: tuple[str, ...], code: str) -> int:
    return max((len(s) for s in selectors if selector_matches(s, code)), default=-1)


def selection_for(path: str, policy: Policy, config: Config | None) -> Selection:
    """Merge the command line with the configuration that applies to ``path``."""
    select = policy.select or (config.select if config and config.select is not None else None)
    chosen = select if select is not None else ("DN",)
    extend = (config.extend_select if config else ()) + policy.extend_select
    ignore = (config.ignore + config.ignores_for(path) if config else ()) + policy.ignore
    overrides = (config.severity_override if config else ()) + policy.severity_override
    return Selection(chosen + extend, ignore, overrides, policy.directives)


def apply_policy(result: FileResult, selection: Selection) -> None:
    """Rewrite ``result.diagnostics`` in place: suppressed, re-levelled, selected, sorted."""
    diagnostics = list(result.diagnostics)
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
    result.diagnostics = sorted(kept, key=Diagnostic.sort_key)


_MENTION = re.compile("dnlint", re.IGNORECASE)


def _may_hold_directives(lines: list[str]) -> bool:
    """False when no line spells "dnlint" in any case, as every directive (and every misplaced
    one) does: most files then skip the per-comment parse. An IGNORECASE regex search is slow
    (0.1 ms on a large cfg), so ASCII text, where it means the same, is lowered and searched."""
    text = "\n".join(lines)
    if text.isascii():
        return "dnlint" in text.lower()
    return _MENTION.search(text) is not None  # IGNORECASE also folds some non-ASCII letters


def _suppress(diagnostics: list[Diagnostic], result: FileResult) -> list[Diagnostic]:
    assert result.document is not None
    if not _may_hold_directives(result.document.lines):
        return diagnostics
    found = parse_directives(result.document, result.path)
    kept = []
    for diagnostic in diagnostics:
        scopes = [] if is_syntax_error(diagnostic.code, diagnostic.severity) else [
            s for s in found.scopes if s.covers(diagnostic)]
        for scope in scopes:
            scope.used = True
        if not scopes:
            kept.append(diagnostic)
    kept += found.problems
    kept += [_unused(scope.selector, scope.line, scope.column, result.path)
             for scope in found.scopes if not scope.used]
    return kept


def _unused(selector: str, line: int, column: int, path: str) -> Diagnostic:
    return new_diagnostic("DN901", line, column, f"suppression of {selector} suppresses nothing",
                          "delete the directive", path)
