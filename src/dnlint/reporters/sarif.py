"""``--format sarif``: SARIF 2.1.0 for code scanning (GitHub, GitLab, IDEs).

The driver lists every rule, so ``ruleIndex`` is stable; each result has ``ruleId``, ``level``,
``message`` and a physical location (``startLine``/``startColumn`` when known). Relative paths
are given against ``%SRCROOT%`` so results stay the same across checkouts.
"""

from __future__ import annotations

import os
import sys

from dnlint import __version__
from dnlint.clean import path_bytes
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.reporters import ReportContext
from dnlint.reporters.json_ import StreamedArray, indented_json, json_string
from dnlint.result import FileResult, RunTotals
from dnlint.rules import all_rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_head() -> dict[str, Any]:
    """The log without its results (and invocation): what is known before any file."""
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "dnlint",
                "version": __version__,
                "rules": [_rule(r, page) for page in (rules_page_url(),) for r in all_rules()],
            }},
            "columnKind": "unicodeCodePoints",
            "results": _RESULTS,
            "invocations": _INVOCATIONS,
        }],
    }


# placeholders for what is written later, while the rest of the log is serialised
_RESULTS, _INVOCATIONS = "\u0000results", "\u0000invocations"


class SarifReporter:
    """SARIF 2.1.0, results streamed as each file is done; the invocation (exit status,
    working directory) closes the run."""

    def __init__(self, ctx: ReportContext) -> None:
        self.ctx = ctx
        self.index = {r.code: i for i, r in enumerate(all_rules())}
        log = indented_json(sarif_head())
        before, rest = log.split(json_string(_RESULTS))
        self.middle, self.after = rest.split(json_string(_INVOCATIONS))
        self.ctx.stream.write(before + "[")
        self.results = StreamedArray(ctx.stream, 3)  # log > runs > run > results

    def file(self, result: FileResult) -> None:
        self.results.write_all([_result(d, self.index) for d in result.diagnostics])

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        close = self.results.closing()
        invocations = indented_json([_invocation(exit_status)], "\n      ")
        self.ctx.stream.write(close + self.middle + invocations + self.after + "\n")


def _invocation(exit_status: int | None) -> dict[str, Any]:
    invocation: dict[str, Any] = {"executionSuccessful": exit_status in (0, 1, None)}
    if exit_status is not None:
        invocation["exitCode"] = exit_status
    try:  # noqa: SIM105 - contextlib is not imported by a run (start-up)
        invocation["workingDirectory"] = {"uri": _file_uri(os.getcwd())}
    except OSError:
        pass
    return invocation


def rules_page_url() -> str | None:
    """Where docs/rules.md is published: the ``Rules`` entry of ``[project.urls]`` in the
    installed distribution's metadata, or None while the project declares none (then the
    rules carry their whole text in ``help`` and no ``helpUri``).

    Read from the first ``dnlint-*.dist-info`` on ``sys.path`` (the one importlib.metadata
    would pick), without importlib.metadata: importing it costs a SARIF run 50 ms."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or os.curdir)
        except OSError:
            continue
        for name in names:
            if name.startswith("dnlint-") and name.endswith(".dist-info"):
                return _rules_url(os.path.join(folder or os.curdir, name, "METADATA"))
    return None


def _rules_url(metadata: str) -> str | None:
    try:
        with open(metadata, encoding="utf-8") as lines:
            for line in lines:
                if line == "\n":
                    return None  # the headers end here; the long description follows
                key, _, value = line.partition(":")
                label, _, url = value.partition(",")
                if key == "Project-URL" and label.strip().lower() == "rules" and url.strip():
                    return url.strip()
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _rule(rule: Any, page: str | None) -> dict[str, Any]:
    described: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.darknet},
        "help": {"text": rule.explanation()},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }
    if page:
        described["helpUri"] = f"{page.split('#')[0]}#{rule.anchor}"
    return described


def _result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    text = d.message + (f" (hint: {d.hint})" if d.hint else "")
    result: dict[str, Any] = {"ruleId": d.code}
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    result.update({"level": LEVELS[d.severity], "message": {"text": text},
                   "locations": [{"physicalLocation": _physical(d)}]})
    return result


# urllib.parse.quote's always-safe bytes (RFC 3986's unreserved characters)
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")


def quote(raw: bytes, safe: str) -> str:
    """``urllib.parse.quote(raw, safe)``: every byte but the unreserved and ``safe`` ones as
    ``%XX`` (urllib.parse imports re and collections: start-up, issue 35)."""
    kept = _UNRESERVED | frozenset(safe.encode("ascii"))
    return "".join([chr(byte) if byte in kept else f"%{byte:02X}" for byte in raw])


def _file_uri(path: str) -> str:
    """A ``file://`` URI of an absolute path, its raw bytes percent-encoded."""
    return "file://" + quote(path_bytes(path).replace(b"\\", b"/"), safe="/")


def _physical(d: Diagnostic) -> dict[str, Any]:
    raw = path_bytes(d.path).replace(b"\\", b"/")
    artifact: dict[str, Any] = {"uri": quote(raw, safe="/:")}
    if not raw.startswith(b"/"):
        artifact["uriBaseId"] = "%SRCROOT%"
    else:
        artifact["uri"] = _file_uri(d.path)
    location: dict[str, Any] = {"artifactLocation": artifact}
    if d.line is not None and d.line >= 1:
        region: dict[str, Any] = {"startLine": d.line}
        if d.column is not None and d.column >= 1:
            region["startColumn"] = d.column
            if d.end_line is not None and d.end_column is not None:
                if d.end_line != d.line:
                    region["endLine"] = d.end_line
                region["endColumn"] = d.end_column  # the character after the end (3.30.5)
        location["region"] = region
    elif d.byte_offset is not None:  # a binary file: SARIF's byte region (3.30.13)
        location["region"] = {"byteOffset": d.byte_offset, "byteLength": d.byte_length or 0}
    return location
