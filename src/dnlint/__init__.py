"""dnlint: a strict validator for Darknet ``.cfg`` and ``.weights`` files.

The Python API (:mod:`dnlint.api`, loaded on first use so that ``import dnlint`` and the
command stay fast): :func:`lint_text`, :func:`lint_path` and :func:`lint_paths` return
:class:`LintResult` records (:mod:`dnlint.api_types`)."""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: --version needs none
if TYPE_CHECKING:
    from typing import Any

    from dnlint.api import lint_path, lint_paths, lint_text
    from dnlint.api_types import Edit, Finding, Fix, LayerRow, LintResult, Severity

__all__ = ["Edit", "Finding", "Fix", "LayerRow", "LintResult", "Severity", "__version__",
           "lint_path", "lint_paths", "lint_text"]

_API = {"lint_path": "dnlint.api", "lint_paths": "dnlint.api", "lint_text": "dnlint.api",
        "Edit": "dnlint.api_types", "Finding": "dnlint.api_types", "Fix": "dnlint.api_types",
        "LayerRow": "dnlint.api_types", "LintResult": "dnlint.api_types",
        "Severity": "dnlint.api_types"}


def __getattr__(name: str) -> Any:
    """The API's names, imported on first use."""
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'dnlint' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
