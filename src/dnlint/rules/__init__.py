"""The rule registry: every rule's code, name, severity and documentation, declared once.

Beside the stages rather than one of them: every stage reports by code, and the registry
imports no stage.

Each family module (``syntax``, ``options``, ``net_section``, ``memory``, ``topology``,
``heads``, ``labels``, ``weights``, ``recipe``, ``meta``, ``opencv``, ``tensorrt``,
``hank_onnx``) declares its rules with :func:`rule`. ``--explain``,
``--list-rules``, SARIF rule metadata and ``docs/rules.md`` are all generated from these
declarations.

A rule's ``bad`` and ``good`` examples are complete cfgs (``examples="cfg"``, the default):
``tests/test_rule_examples.py`` lints each in every dialect of ``dialects`` and requires the rule's
own code from ``bad`` and no diagnostic at all from ``good``. A backslash escape in an example
(``\\r``, ``\\x00``) stands for that byte. Rules about other files say so with ``examples``:
``"weights"`` (a .weights file with its cfg), ``"data"`` (a .data or .names file) or ``"none"``.
A rule reported only under a deployment target (``--target opencv``: the DN6xx rules) names it
in ``target``; its examples are linted with that target checked.
"""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.records import NamedTuple
from dnlint.severity import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    ExampleKind = Literal["cfg", "weights", "data", "none"]
    # whether ``dnlint --fix`` repairs a rule: "safe" (one right answer), "unsafe" (only with
    # --unsafe-fixes: the intent could differ); the edits live in dnlint.fixes
    FixKind = Literal["safe", "unsafe"]
# where a rule's Reference points: docs/darknet-format.md, by row id (S15) or by anchor (§lines)
FORMAT_DOC = "docs/darknet-format.md"
# what a rule whose examples are not cfgs is found with
_OTHER_FILES = {"weights": "found with --weights FILE", "data": "found with --data FILE"}
# the family that is off unless selected by name (--select DN7, recipe = true), like ruff's
# preview rules: the training recipe (dnlint.rules.recipe)
OPT_IN = "DN7"
EVERY_DIALECT: tuple[Dialect | None, ...] = (Dialect.PJ, Dialect.AB, Dialect.HANK)


class Rule(NamedTuple):  # not a frozen dataclass: loading the registry is 2 ms faster
    code: str
    name: str
    severity: Severity
    summary: str
    darknet: str
    bad: str
    good: str
    reference: str = ""
    dialects: tuple[Dialect | None, ...] = EVERY_DIALECT  # None: no --dialect (detected)
    examples: ExampleKind = "cfg"
    target: str | None = None  # the --target (dnlint.targets.TARGETS) that reports it, if any
    stock: str = ""  # why a warning that the stock cfgs trigger is still worth reporting
    fix: FixKind | None = None
    # where the line between error and warning runs, for a rule reported with more than one
    # severity (per dialect, or per case); empty: always its declared severity
    levels: str = ""

    @property
    def severity_line(self) -> str:
        """The line between error and warning for this rule, in one sentence."""
        if self.levels:
            return self.levels
        return _ALWAYS[self.severity]

    @property
    def anchor(self) -> str:
        """This rule's heading anchor in docs/rules.md (GitHub's slug of "DN001 empty-file")."""
        return f"{self.code.lower()}-{self.name}"

    @property
    def fix_note(self) -> str:
        """What --fix does for this rule, in words (--explain, --list-rules, docs/rules.md)."""
        if self.fix == "safe":
            return "Fix: safe (applied by --fix)."
        if self.fix == "unsafe":
            return "Fix: unsafe (applied by --fix --unsafe-fixes only)."
        return ""

    def example_note(self) -> str:
        """How to reproduce the examples: the dialect flag, when it matters, and escapes."""
        notes = [_OTHER_FILES[self.examples]] if self.examples in _OTHER_FILES else []
        if self.code.startswith(OPT_IN):
            notes.append(f"off by default: with --select {OPT_IN}, or recipe = true")
        if notes and "--scan" in self.reference:
            notes[0] += " --scan"
        if self.target:
            notes.append(f"with --target {self.target}")
        if self.dialects != EVERY_DIALECT:
            notes.append(" or ".join(f"--dialect {d.value}" if d else "no --dialect"
                                     for d in self.dialects))
        if "\\" in self.bad + self.good:
            notes.append("backslash escapes stand for bytes")
        return f" ({'; '.join(notes)})" if notes else ""

    def format_anchors(self) -> list[str]:
        """The anchors of docs/darknet-format.md this rule's reference names (§ dropped)."""
        tokens = (token.strip() for token in self.reference.split(","))
        return [token.lstrip("§") for token in tokens if _is_format_anchor(token)]

    def explanation(self) -> str:
        parts = [
            f"{self.code} {self.name} ({self.severity.value})",
            "",
            self.summary,
            "",
            f"Error or warning: {self.severity_line}",
            "",
            "What Darknet does:",
            f"  {self.darknet}",
            "",
            *([self.fix_note, ""] if self.fix else []),
            f"Example{self.example_note()}:",
            _indent(self.bad),
            "",
            "Use instead:",
            _indent(self.good),
        ]
        if self.stock:
            parts += ["", f"On the stock cfgs: {self.stock}"]
        if self.reference:
            where = f" ({FORMAT_DOC})" if self.format_anchors() else ""
            parts += ["", f"Reference: {self.reference}{where}"]
        return "\n".join(parts)


def _is_format_anchor(token: str) -> bool:
    """Whether ``token`` names a section of docs/darknet-format.md: ``[LNRSW]\\d+`` or
    ``§[a-z][\\w-]*`` (tested without a regex: SARIF explains every rule, and a run that
    imports re pays for it at start-up)."""
    if token[:1] in ("L", "N", "R", "S", "W"):
        return token[1:].isdecimal()
    if token[:1] == "§" and "a" <= token[1:2] <= "z":
        return all(ch.isalnum() or ch in "_-" for ch in token[2:])
    return False


# the line between error and warning of a rule always reported with its declared severity
_ALWAYS = {
    Severity.ERROR: "always an error: Darknet misreads what is written, misbehaves, or cannot "
                    "build the file.",
    Severity.WARNING: "always a warning: Darknet reads the text as written; what it does is "
                      "legal but probably not what was meant, or breaks on a later edit.",
    Severity.INFO: "always a note (info): what dnlint did or could not decide; never an "
                   "error.",
}

_REGISTRY: dict[str, Rule] = {}
_loaded = False


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    summary: str,
    darknet: str,
    bad: str,
    good: str,
    reference: str = "",
    dialects: tuple[Dialect | None, ...] = EVERY_DIALECT,
    examples: ExampleKind = "cfg",
    target: str | None = None,
    stock: str = "",
    fix: FixKind | None = None,
    levels: str = "",
) -> Rule:
    """Declare a rule. Codes are unique and never change meaning."""
    if code in _REGISTRY:
        raise ValueError(f"rule {code} declared twice")
    declared = Rule(code, name, severity, summary, darknet, bad, good, reference, dialects,
                    examples, target, stock, fix, levels)
    _REGISTRY[code] = declared
    return declared


# The family module that declares a code, by the code's first four characters: a run that
# reports a few codes loads their families, not all thirteen (3 ms of a one-file run).
# tests/test_rules_registry.py holds the table to what each module declares.
_FAMILIES: dict[str, str] = {
    "DN00": "syntax", "DN01": "syntax", "DN02": "syntax", "DN03": "syntax",
    "DN10": "net_section", "DN11": "net_section", "DN12": "memory",
    "DN20": "options", "DN21": "options",
    **{f"DN3{digit}": "topology" for digit in "0123456789"},
    "DN40": "heads", "DN41": "heads", "DN42": "heads", "DN43": "labels", "DN44": "labels",
    "DN50": "weights", "DN51": "weights", "DN52": "weights",
    "DN60": "opencv", "DN61": "opencv", "DN62": "tensorrt", "DN63": "tensorrt",
    "DN64": "hank_onnx", "DN65": "hank_onnx", "DN70": "recipe", "DN90": "meta",
}


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        # importing a family module declares its rules (rule()); plain imports a reader can follow,
        # on first use: a run without findings never loads the declarations (start-up)
        import dnlint.rules.syntax  # noqa: I001 - registration order is the table order
        import dnlint.rules.options
        import dnlint.rules.net_section
        import dnlint.rules.memory
        import dnlint.rules.topology
        import dnlint.rules.heads
        import dnlint.rules.labels
        import dnlint.rules.weights
        import dnlint.rules.recipe
        import dnlint.rules.meta
        import dnlint.rules.opencv
        import dnlint.rules.tensorrt
        import dnlint.rules.hank_onnx  # noqa: F401


def _load_family(code: str) -> None:
    """Declare the rules of ``code``'s family (all of them when no family claims it)."""
    family = _FAMILIES.get(code[:4])
    if family is None:
        _load()
    else:
        __import__(f"dnlint.rules.{family}")


def all_rules() -> list[Rule]:
    _load()
    return sorted(_REGISTRY.values(), key=lambda r: r.code)


def get_rule(code: str) -> Rule:
    found = _REGISTRY.get(code)
    if found is None:
        _load_family(code)
        found = _REGISTRY.get(code)
        if found is None:
            _load()
            found = _REGISTRY.get(code)
    if found is None:
        raise ValueError(f'no such rule: "{code}"')
    return found


def find_rule(code_or_name: str) -> Rule | None:
    """The rule of a code (any case) or a name; None for neither."""
    code = code_or_name.upper()
    if code[:4] in _FAMILIES:
        _load_family(code)  # a code: its family is enough (names are lowercase words)
        if code in _REGISTRY:
            return _REGISTRY[code]
    _load()
    if code in _REGISTRY:
        return _REGISTRY[code]
    return next((r for r in _REGISTRY.values() if r.name == code_or_name), None)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.strip("\n").splitlines())


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - rule tables
PJ, AB, HANK, AUTO = Dialect.PJ, Dialect.AB, Dialect.HANK, None
# The smallest [net] that every dialect builds, and a first layer: the start of most examples.
NET = "[net]\nwidth=32\nheight=32\nchannels=3\n"
CONV = "\n[convolutional]\nfilters=16\n"
