"""``--format json``: one document, stable keys (``version`` 1)."""

from __future__ import annotations

import json
from typing import Any

from dnlint import __version__
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.engine import RunResult
from dnlint.reporters import ReportContext
from dnlint.result import FileResult


def diagnostic_json(d: Diagnostic, file_path: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": d.code,
        "severity": d.severity.value,
        "line": d.line,
        "column": d.column,
        "message": d.message,
    }
    if d.hint:
        entry["hint"] = d.hint
    if d.path and d.path != file_path:
        entry["path"] = d.path  # e.g. a weights-file finding listed under its cfg
    return entry


def file_json(result: FileResult) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "path": result.path,
        "dialect": result.dialect.value if result.dialect else None,
        "dialect_reason": result.dialect_reason,
        "diagnostics": [diagnostic_json(d, result.path) for d in result.diagnostics],
    }
    if result.network is not None:
        entry["layers"] = [
            {
                "index": layer.index,
                "type": layer.type,
                "line": layer.line,
                "input": list(layer.input),
                "output": list(layer.output),
                "outputs": layer.outputs,
                "params": layer.params,
            }
            for layer in result.network.layers
        ]
    if result.weights is not None:
        entry["weights"] = result.weights.to_json()
    return entry


def run_json(run: RunResult) -> dict[str, Any]:
    return {
        "version": 1,
        "tool": {"name": "dnlint", "version": __version__},
        "files": [file_json(f) for f in run.files],
        "summary": {
            "files": len(run.files),
            "errors": run.count(Severity.ERROR),
            "warnings": run.count(Severity.WARNING),
            "infos": run.count(Severity.INFO),
        },
    }


def report_json(run: RunResult, ctx: ReportContext) -> None:
    json.dump(run_json(run), ctx.stream, indent=2)
    ctx.stream.write("\n")
