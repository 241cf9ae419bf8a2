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
    if name == "json":
        from dnlint.reporters.json_ import report_json

        return report_json
    from dnlint.reporters.text import report_text

    return report_text


FORMATS = ("text", "json")
