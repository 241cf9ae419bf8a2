"""The rule registry: every rule's code, name, severity and documentation, declared once.

Each family module (``syntax``, ``options``, ``net``, ``topology``, ``heads``, ``weights``,
``meta``) declares its rules with :func:`rule`. ``--explain``, ``--list-rules``, SARIF rule
metadata and ``docs/rules.md`` are all generated from these declarations.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from dnlint.diagnostics import Severity

FAMILIES = ("syntax", "options", "net", "topology", "heads", "weights", "meta")


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    darknet: str
    bad: str
    good: str
    reference: str = ""
    stock: str = ""  # why a warning that the stock cfgs trigger is still worth reporting

    def explanation(self) -> str:
        parts = [
            f"{self.code} {self.name} ({self.severity.value})",
            "",
            self.summary,
            "",
            "What Darknet does:",
            f"  {self.darknet}",
            "",
            "Example:",
            _indent(self.bad),
            "",
            "Use instead:",
            _indent(self.good),
        ]
        if self.stock:
            parts += ["", f"On the stock cfgs: {self.stock}"]
        if self.reference:
            parts += ["", f"Reference: {self.reference}"]
        return "\n".join(parts)


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
    stock: str = "",
) -> Rule:
    """Declare a rule. Codes are unique and never change meaning."""
    if code in _REGISTRY:
        raise ValueError(f"rule {code} declared twice")
    declared = Rule(code, name, severity, summary, darknet, bad, good, reference, stock)
    _REGISTRY[code] = declared
    return declared


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for family in FAMILIES:
            importlib.import_module(f"dnlint.rules.{family}")


def all_rules() -> list[Rule]:
    _load()
    return sorted(_REGISTRY.values(), key=lambda r: r.code)


def get_rule(code: str) -> Rule:
    _load()
    try:
        return _REGISTRY[code]
    except KeyError:
        raise ValueError(f'no such rule: "{code}"') from None


def find_rule(code_or_name: str) -> Rule | None:
    _load()
    if code_or_name.upper() in _REGISTRY:
        return _REGISTRY[code_or_name.upper()]
    return next((r for r in _REGISTRY.values() if r.name == code_or_name), None)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.strip("\n").splitlines())


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - rule tables
