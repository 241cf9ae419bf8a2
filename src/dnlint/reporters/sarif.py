"""``--format sarif``: SARIF 2.1.0 for code scanning (GitHub, GitLab, IDEs).

The driver lists every rule, so ``ruleIndex`` is stable; each result has ``ruleId``, ``level``,
``message`` and a physical location (``startLine``/``startColumn`` when known). Relative paths
are given against ``%SRCROOT%`` so results stay the same across checkouts.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from dnlint import __version__
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.engine import RunResult
from dnlint.reporters import ReportContext

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_log(run: RunResult) -> dict[str, Any]:
    from dnlint.rules import all_rules

    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "dnlint",
                "version": __version__,
                "rules": [_rule(r) for r in rules],
            }},
            "columnKind": "unicodeCodePoints",
            "results": [_result(d, index) for d in run.diagnostics],
        }],
    }


def _rule(rule: Any) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.darknet},
        "help": {"text": rule.explanation()},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }


def _result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    text = d.message + (f" (hint: {d.hint})" if d.hint else "")
    result: dict[str, Any] = {"ruleId": d.code}
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    result.update({"level": LEVELS[d.severity], "message": {"text": text},
                   "locations": [{"physicalLocation": _physical(d)}]})
    return result


def _physical(d: Diagnostic) -> dict[str, Any]:
    path = d.path.replace("\\", "/")
    artifact: dict[str, Any] = {"uri": quote(path, safe="/:")}
    if not path.startswith("/"):
        artifact["uriBaseId"] = "%SRCROOT%"
    else:
        artifact["uri"] = "file://" + quote(path, safe="/")
    location: dict[str, Any] = {"artifactLocation": artifact}
    if d.line is not None and d.line >= 1:
        region: dict[str, Any] = {"startLine": d.line}
        if d.column is not None and d.column >= 1:
            region["startColumn"] = d.column
        location["region"] = region
    return location


def report_sarif(run: RunResult, ctx: ReportContext) -> None:
    json.dump(sarif_log(run), ctx.stream, indent=2)
    ctx.stream.write("\n")
