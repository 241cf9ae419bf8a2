"""``--statistics``: how many findings of each rule, and nothing else, as ruff prints them.

Text (every format but JSON)::

        2  DN103  [*] batch-not-divisible
        1  DN101      learning-rate-zero
    Found 3 problems (3 warnings) in 2 files.

``[*]`` marks a rule whose findings are all fixable with ``--fix`` (ruff's mark). JSON is
one document with a ``statistics`` array (``code``, ``name``, ``count``, ``fixable``: how many
``--fix`` repairs) and the usual ``summary``. Memory is one counter per rule.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from dnlint import __version__
from dnlint.reporters import ReportContext
from dnlint.result import FileResult, RunTotals
from dnlint.rules import find_rule


class StatisticsReporter:
    """Counts per rule over the run, printed at the end."""

    def __init__(self, ctx: ReportContext, as_json: bool) -> None:
        self.ctx = ctx
        self.as_json = as_json
        self.fixable: Counter[str] = Counter()

    def file(self, result: FileResult) -> None:
        for diagnostic in result.diagnostics:
            if diagnostic.fix is not None and diagnostic.fix.safe:
                self.fixable[diagnostic.code] += 1

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        rows = statistics_rows(totals, self.fixable)
        if self.as_json:
            # the other format's module loads only when asked for (start-up)
            from dnlint.reporters.json_ import SCHEMA_VERSION, summary_json

            document = {"version": SCHEMA_VERSION,
                        "tool": {"name": "dnlint", "version": __version__},
                        "statistics": rows, "summary": summary_json(totals)}
            self.ctx.stream.write(json.dumps(document, indent=2) + "\n")
            return
        lines = statistics_lines(rows)
        if not self.ctx.quiet:
            from dnlint.reporters.text import fix_lines, summary_line

            lines += [summary_line(totals), *fix_lines(totals, self.ctx.verbose)]
        self.ctx.stream.write("".join(line + "\n" for line in lines))


def statistics_rows(totals: RunTotals, fixable: Counter[str]) -> list[dict[str, Any]]:
    """One row per rule found, most frequent first, then by code."""
    rows = []
    for code, count in sorted(totals.by_code.items(), key=lambda item: (-item[1], item[0])):
        found = find_rule(code)
        rows.append({"code": code, "name": found.name if found else "", "count": count,
                     "fixable": fixable[code]})
    return rows


def statistics_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``count  CODE  [*] name`` per row, the counts right-aligned to the widest."""
    width = max((len(str(row["count"])) for row in rows), default=1)
    marked = any(row["fixable"] for row in rows)
    lines = []
    for row in rows:
        mark = ("[*] " if row["fixable"] == row["count"] else "    ") if marked else ""
        lines.append(f"{row['count']:>{width}}  {row['code']}  {mark}{row['name']}".rstrip())
    return lines
