"""Code actions: the ``--fix`` edit of a finding (quickfix), a directive that disables a
rule on the finding's line, and ``source.fixAll.dnlint`` (``dnlint --fix``: safe fixes only).

A diagnostic the client sends back may have been computed for an older text (the editor
keeps showing it while the next lint runs). Every action is therefore computed from the
finding of the *current* text that it stands for (:func:`current`): the same rule on a line
of the same text, where that line is now; when the text is gone, nothing is offered. An
edit is sent as a versioned edit where the client takes one, so it can never land on other
text either."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

from dnlint.lsp.convert import SOURCE
from dnlint.lsp.rpc import clamped

if TYPE_CHECKING:
    from dnlint.lsp.analysis import Analysis
    from dnlint.settings.config import ConfigFinder


class Server(Protocol):
    """What the actions read of the server (:class:`dnlint.lsp.server.Server`): its settings
    and what the client takes. (A protocol, so that this module does not import the server,
    which imports it.)"""

    fix_all: bool
    disable_comment: bool
    document_changes: bool
    finder: ConfigFinder

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.dnlint"
_DIRECTIVE_ABOVE = re.compile(r"^(\s*#\s*dnlint:\s*disable-next-line\s*=\s*)(\S.*?)\s*$")


def wanted(kind: str, only: Any) -> bool:
    """Whether ``kind`` answers a request limited to ``only`` (kinds match by prefix:
    ``source.fixAll`` asks for ``source.fixAll.dnlint``)."""
    if not isinstance(only, list):
        return True
    return any(isinstance(o, str) and (kind == o or kind.startswith(o + ".")) for o in only)


def code_actions(server: Server, analysis: Analysis, params: dict[str, Any]) -> list[Any]:
    context = _dict(params.get("context"))
    only = context.get("only")
    given = context.get("diagnostics")
    actions: list[Any] = []
    if wanted(QUICKFIX, only):
        for diagnostic in given if isinstance(given, list) else []:
            if isinstance(diagnostic, dict) and diagnostic.get("source") == SOURCE:
                now = current(analysis, diagnostic)
                if now is not None:
                    actions += _for_finding(server, analysis, diagnostic, now)
    if server.fix_all and wanted(FIX_ALL, only) and (only is not None or _any_fix(analysis)):
        fix_all = _fix_all(server, analysis)
        if fix_all is not None:
            actions.append(fix_all)
    return actions


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _any_fix(analysis: Analysis) -> bool:
    return any(d.fix is not None and d.fix.safe for d in analysis.findings())


def current(analysis: Analysis, diagnostic: dict[str, Any]) -> dict[str, Any] | None:
    """The diagnostic of the analysed text that ``diagnostic`` (as the client sent it back,
    perhaps made for an older text) stands for: of those with its code on a line of the same
    text (``data.anchor``; a message can change with other lines, as a hint's line number
    does), the nearest its line; itself when it was made for this text. Without an anchor (a
    client that drops ``data``), the same code and message. None when the text it was about
    is gone."""
    code, message = diagnostic.get("code"), diagnostic.get("message")
    anchor = _dict(diagnostic.get("data")).get("anchor")
    if anchor is not None:
        found = [d for d in analysis.diagnostics()
                 if d["code"] == code and d["data"].get("anchor") == anchor]
    else:
        found = [d for d in analysis.diagnostics()
                 if d["code"] == code and d["message"] == message]
    line = _start_line(diagnostic) or 0
    # the nearest; of two on one line (a width and a height finding), the one it says
    return min(found, key=lambda d: (abs((_start_line(d) or 0) - line), d["message"] != message),
               default=None)


def _start_line(diagnostic: dict[str, Any]) -> int | None:
    where = _dict(diagnostic.get("range"))
    return clamped(_dict(where.get("start")).get("line"))


def _for_finding(server: Server, analysis: Analysis, given: dict[str, Any],
                 diagnostic: dict[str, Any]) -> list[Any]:
    """The actions on ``diagnostic`` (this text's), answering the client's ``given``."""
    code = diagnostic.get("code")
    data = _dict(diagnostic.get("data"))
    actions = []
    fix = _dict(data.get("fix"))
    if fix:
        edits = fix.get("edits")
        if isinstance(edits, list) and edits:
            safe = fix.get("safe") is True
            title = f"Fix {code}" + ("" if safe else " (unsafe: check the result)")
            actions.append({"title": title, "kind": QUICKFIX, "diagnostics": [given],
                            "isPreferred": safe, "edit": _edit(server, analysis, edits)})
    if server.disable_comment and isinstance(code, str):
        disable = _disable(server, analysis, diagnostic, code, given)
        if disable is not None:
            actions.append(disable)
    return actions


def _edit(server: Server, analysis: Analysis, edits: list[Any]) -> dict[str, Any]:
    uri = analysis.doc.uri
    if server.document_changes:
        return {"documentChanges": [{"textDocument": {"uri": uri, "version": analysis.version},
                                     "edits": edits}]}
    return {"changes": {uri: edits}}


def _disable(server: Server, analysis: Analysis, diagnostic: dict[str, Any],
             code: str, given: dict[str, Any]) -> dict[str, Any] | None:
    """``# dnlint: disable-next-line=CODE`` above the finding's line (added to a directive
    already there). Never for a syntax error, which no directive suppresses."""
    from dnlint.diagnostics import Severity
    from dnlint.settings.selectors import is_syntax_error

    severity = {1: Severity.ERROR, 2: Severity.WARNING}.get(diagnostic.get("severity", 1),
                                                           Severity.INFO)
    if is_syntax_error(code, severity):
        return None
    data = _dict(diagnostic.get("data"))
    if "line" in data and data["line"] is None:  # about the whole file
        top = {"range": {"start": {"line": 0, "character": 0},
                         "end": {"line": 0, "character": 0}},
               "newText": f"# dnlint: disable-file={code}{analysis.doc.eol()}"}
        return {"title": f"Disable {code} for this file", "kind": QUICKFIX,
                "diagnostics": [given], "edit": _edit(server, analysis, [top])}
    line = _start_line(diagnostic)
    if line is None:
        return None
    doc = analysis.doc
    if line >= doc.line_count():
        return None
    above = doc.line_text(line - 1) if line > 0 else ""
    found = _DIRECTIVE_ABOVE.match(above) if line > 0 else None
    if found is not None:
        codes = [c.strip() for c in found.group(2).split(",")]
        if code in codes:
            return None
        new_text = f"{found.group(1)}{found.group(2)},{code}"
        edit = {"range": {"start": {"line": line - 1, "character": 0},
                          "end": {"line": line - 1,
                                  "character": _units(above, analysis.encoding)}},
                "newText": new_text}
    else:
        edit = {"range": {"start": {"line": line, "character": 0},
                          "end": {"line": line, "character": 0}},
                "newText": f"# dnlint: disable-next-line={code}{doc.eol()}"}
    return {"title": f"Disable {code} for this line", "kind": QUICKFIX,
            "diagnostics": [given], "edit": _edit(server, analysis, [edit])}


def _units(text: str, encoding: str) -> int:
    from dnlint.lsp.text import units

    return units(text, encoding)


def _fix_all(server: Server, analysis: Analysis) -> dict[str, Any] | None:
    from dnlint.lsp.pipeline import fixed_text

    doc = analysis.doc
    new = fixed_text(doc.text, analysis.path, server.finder, analysis.settings,
                     analysis.display)
    if new is None:
        return None
    old = doc.text
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    # never split a CRLF or a surrogate pair between the kept and the replaced text
    while prefix > 0 and old[prefix - 1] == "\r":
        prefix -= 1
    end = len(old) - suffix
    if 0 < end < len(old) and old[end] == "\n" and old[end - 1] == "\r":
        end, suffix = end + 1, suffix - 1
    edit = {"range": doc.range_of(prefix, end, analysis.encoding),
            "newText": new[prefix:len(new) - suffix]}
    return {"title": "dnlint: fix all safe fixes", "kind": FIX_ALL,
            "edit": _edit(server, analysis, [edit])}
