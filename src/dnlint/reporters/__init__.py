"""The last stage, reporters (bytes → read → options → network → weights → checks → dataset →
settings/policy → **reporters**): one module per format, each a streaming consumer of finished
results (the command's :mod:`dnlint.console` streams a run to one).

A reporter is told about each file as soon as that file is done (:meth:`Reporter.file`) and
keeps at most a small summary of it; :meth:`Reporter.finish` closes the report with the run's
totals. Every format writes each file as it comes (JUnit's root element carries no totals
for that reason).
"""

from __future__ import annotations

from dnlint.records import NamedTuple
from dnlint.result import FileResult, RunTotals

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: a run imports this module (start-up, issue 35)
    from collections.abc import Iterable
    from typing import Protocol, TextIO

    class Reporter(Protocol):
        def file(self, result: FileResult) -> None: ...

        def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
            """Close the report; ``exit_status`` is the command's (SARIF records it)."""


class ReportContext(NamedTuple):  # not a frozen dataclass: ~1 ms less start-up
    stream: TextIO
    color: bool
    quiet: bool = False
    verbose: bool = False
    show_layers: bool = False
    statistics: bool = False


def get_reporter(name: str, ctx: ReportContext) -> Reporter:
    """The reporter for ``--format name``; each lives in its own module, imported on demand.
    With ``--statistics`` the counts per rule replace the findings (JSON as JSON)."""
    # each format's module loads only when chosen (start-up), and imports ReportContext from here
    if ctx.statistics:
        from dnlint.reporters.statistics import StatisticsReporter

        return StatisticsReporter(ctx, as_json=name == "json")
    if name in ("text", "concise"):
        from dnlint.reporters.text import TextReporter

        return TextReporter(ctx, concise=name == "concise")
    if name == "json":
        from dnlint.reporters.json_ import JsonReporter

        return JsonReporter(ctx)
    if name == "sarif":
        from dnlint.reporters.sarif import SarifReporter

        return SarifReporter(ctx)
    if name == "github":
        from dnlint.reporters.github import GithubReporter

        return GithubReporter(ctx)
    if name == "junit":
        from dnlint.reporters.junit import JunitReporter

        return JunitReporter(ctx)
    raise ValueError(f"no such format: {name!r}")


def report_all(name: str, results: Iterable[FileResult], ctx: ReportContext) -> RunTotals:
    """Report ``results`` in one go (tests, and callers that already hold every result)."""
    reporter = get_reporter(name, ctx)
    totals = RunTotals()
    for result in results:
        totals.add(result)
        reporter.file(result)
    reporter.finish(totals, None)
    return totals


FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
