"""What a rule selector is and which findings no selector can hide: shared by the policy, the
in-file directives and the configuration (a module of its own, so that the policy need not
load the directive parser for the many files that hold no directive)."""

from __future__ import annotations

from dnlint.severity import Severity


def normalize(selector: str) -> str:
    """``dn2`` -> ``DN2``; ``ALL`` selects every rule."""
    upper = selector.strip().upper()
    return "DN" if upper == "ALL" else upper


def selector_matches(selector: str, code: str) -> bool:
    return code.startswith(selector)


def is_syntax_error(code: str, severity: Severity) -> bool:
    """Syntax errors (DN0xx at error level) can be neither suppressed nor deselected."""
    return code.startswith("DN0") and severity is Severity.ERROR
