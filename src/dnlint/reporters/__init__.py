"""Reporters: pure functions from a run's results to text, one module per format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from dnlint.engine import RunResult


@dataclass(frozen=True)
class ReportContext:
    stream: TextIO
    color: bool
    quiet: bool = False
    verbose: bool = False
    show_layers: bool = False
    statistics: bool = False


Reporter = Callable[[RunResult, ReportContext], None]


def get_reporter(name: str) -> Reporter:
    """The reporter for ``--format name``; each lives in its own module, imported on demand."""
    import importlib

    module_name, function = _REPORTERS.get(name, _REPORTERS["text"])
    module = importlib.import_module(f"dnlint.reporters.{module_name}")
    reporter: Reporter = getattr(module, function)
    return reporter


_REPORTERS = {
    "text": ("text", "report_text"),
    "concise": ("text", "report_concise"),
    "json": ("json_", "report_json"),
    "sarif": ("sarif", "report_sarif"),
    "github": ("github", "report_github"),
    "junit": ("junit", "report_junit"),
}
FORMATS = tuple(_REPORTERS)
