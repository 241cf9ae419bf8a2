"""dnlint-lsp against a hostile or careless client, over the real stdio framing: header
blocks that are not LSP's end the session (never wedge it), numbers outside LSP's integer
types are bounded before use, and a code action on a diagnostic made for an older text lands
where that text is now (or is not offered)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import WARNED_CFG
from lsp_client import TIMEOUT, YOLO_HEAD, Client

HEAD = YOLO_HEAD  # DN401 on line 21 (LSP line 20), fixed at filters=20 (LSP line 13)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    started = Client(cwd=tmp_path)
    yield started
    started.kill()


def body(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode("utf-8")


def frame(message: dict[str, Any]) -> bytes:
    data = body(message)
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def write(client: Client, data: bytes) -> None:
    assert client.process.stdin is not None
    client.process.stdin.write(data)
    client.process.stdin.flush()


def log_messages(client: Client) -> list[str]:
    return [n["params"]["message"] for n in client.notifications
            if n["method"] == "window/logMessage"]


# --- framing -----------------------------------------------------------------------------------
SHUTDOWN = {"jsonrpc": "2.0", "id": 77, "method": "shutdown", "params": None}

# (the bytes of a header block and what follows it, the reason said on stderr)
BAD_HEADERS = [
    (b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body(SHUTDOWN),
     b"a frame's header has no Content-Length"),
    (b"X-Trace: 1\n\n" + body(SHUTDOWN), b"a frame's header has no Content-Length"),
    (b"Content-Lenght: 57\r\n\r\n" + body(SHUTDOWN), b"a frame's header has no Content-Length"),
    (b"hello there\r\n\r\n", b"not a header line: 'hello there\\r\\n'"),
    (b"{\"jsonrpc\": \"2.0\"}\r\n\r\n", b"not a header line"),
    (b"Content-Length: +57\r\n\r\n" + body(SHUTDOWN), b"bad Content-Length: '+57'"),
    (b"Content-Length: 5_7\r\n\r\n" + body(SHUTDOWN), b"bad Content-Length: '5_7'"),
    (b"Content-Length: -1\r\n\r\n", b"bad Content-Length: '-1'"),
    (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n", b"out of range"),
    (b"Content-Length: 57\r\nContent-Length: 58\r\n\r\n" + body(SHUTDOWN),
     b"two different Content-Lengths"),
    (b"X: " + b"a" * 9000 + b"\r\n\r\n", b"a header line longer than 8192 bytes"),
    (b"X: 1\r\n" * 40 + b"\r\n", b"more than 32 lines"),
]


@pytest.mark.parametrize(("block", "reason"), BAD_HEADERS,
                         ids=[f"bad{n}" for n in range(len(BAD_HEADERS))])
def test_a_header_block_that_is_not_lsp_ends_the_session(client: Client, block: bytes,
                                                         reason: bytes) -> None:
    client.initialize()
    # the bad block, then frames that would be answered if the server read on out of step
    write(client, block + frame(SHUTDOWN) + frame({"jsonrpc": "2.0", "method": "exit"}))
    assert client.process.wait(timeout=TIMEOUT) == 1
    assert client.process.stderr is not None
    said = client.process.stderr.read()
    assert said.startswith(b"dnlint-lsp: ") and reason in said
    assert said.endswith(b": the connection is closed\n")
    with pytest.raises(EOFError):  # every frame the server wrote, to the end of its output
        while True:
            client._pump(time.monotonic() + TIMEOUT)
    assert 77 not in client.responses  # nothing after the bad block was taken for a frame


def test_blank_lines_between_frames_and_other_headers_are_lsp(client: Client) -> None:
    client.initialize()
    write(client, b"\r\n\n" + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
          + b"content-length:   %d\n\n" % len(body(SHUTDOWN)) + body(SHUTDOWN))
    deadline = time.monotonic() + TIMEOUT
    while 77 not in client.responses:
        client._pump(deadline)
    assert client.responses[77] == {"jsonrpc": "2.0", "id": 77, "result": None}
    client.notify("exit")
    assert client.process.wait(timeout=TIMEOUT) == 0


# --- numbers -----------------------------------------------------------------------------------
def test_numbers_outside_lsp_integers_are_bounded_before_use(tmp_path: Path) -> None:
    for pid in (2**31, 2**40, -(2**63), 1e300, True, "12"):
        client = Client(cwd=tmp_path)
        try:
            params = {"processId": pid, "capabilities": {
                "workspace": {"workspaceEdit": {"documentChanges": 1}}}}
            client.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
            deadline = time.monotonic() + TIMEOUT
            while 1 not in client.responses:
                client._pump(deadline)
            assert "result" in client.responses[1]
            client.notify("initialized", {})
            if pid == 2**40:
                # the parent is looked for when the server has waited 10 s for a message: a
                # pid past 2**31 crashed it there (OverflowError, then an abort)
                client.drain(11.0)
                assert client.process.poll() is None
            uri = (tmp_path / "a.cfg").as_uri()
            client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri, "languageId": "darknet", "version": 2**53,
                                 "text": WARNED_CFG}}})
            published = client.published(uri)
            assert "version" not in published  # 2**53 is no LSP integer: no version
            [found] = published["diagnostics"]
            assert (found["code"], found["data"]["version"]) == ("DN103", None)
            for line, character in ((2**40, 0), (-(2**63), 2**64), (1, 10**30)):
                hover = client.request_raw("textDocument/hover", {
                    "textDocument": {"uri": uri},
                    "position": {"line": line, "character": character}})
                assert "error" not in hover, hover
            far = {**found, "range": {"start": {"line": 2**63, "character": 0},
                                      "end": {"line": 2**63, "character": 1}}}
            actions = client.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": far["range"],
                "context": {"diagnostics": [far], "only": ["quickfix"]}})
            # the finding is matched to the text's own, on its own line (LSP line 2)
            [disable] = actions
            # documentChanges: 1 is no JSON true: a plain (unversioned) edit
            assert disable["edit"]["changes"][uri][0]["range"]["start"] == {"line": 2,
                                                                            "character": 0}
            assert log_messages(client) == []
            assert client.close() == 0
        finally:
            client.kill()


@pytest.mark.parametrize("request_id", [2**31, -(2**31) - 1, 1.5, 1e400, None, [1], {"a": 1},
                                        True])
def test_a_request_id_that_is_no_lsp_id_is_refused(client: Client, request_id: Any) -> None:
    client.initialize()
    write(client, b"Content-Length: %d\r\n\r\n" % len(raw := json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "method": "shutdown"}).encode()) + raw)
    deadline = time.monotonic() + TIMEOUT
    while None not in client.responses:
        client._pump(deadline)
    refused = client.responses.pop(None)
    assert refused["error"]["code"] == -32600
    assert refused["error"]["message"] == ("a request id must be a string or an integer "
                                           "within -2147483648..2147483647")
    # the edges of LSP's integer are ids, and the session goes on
    for edge in (2**31 - 1, -(2**31)):
        client.send({"jsonrpc": "2.0", "id": edge, "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": "file:///none.cfg"},
                                "position": {"line": 0, "character": 0}}})
        while edge not in client.responses:
            client._pump(deadline)
        assert client.responses.pop(edge)["result"] is None
    assert client.close() == 0


# --- code actions on an older text --------------------------------------------------------------
def actions_for(client: Client, uri: str, diagnostic: dict[str, Any]) -> list[dict[str, Any]]:
    return client.request("textDocument/codeAction", {  # type: ignore[no-any-return]
        "textDocument": {"uri": uri}, "range": diagnostic["range"],
        "context": {"diagnostics": [diagnostic], "only": ["quickfix"]}})


def start_of(line: int) -> dict[str, Any]:
    return {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}


def test_an_action_on_an_older_version_lands_where_its_text_is_now(client: Client,
                                                                   tmp_path: Path) -> None:
    client.initialize()
    uri = (tmp_path / "head.cfg").as_uri()
    client.open(uri, HEAD)
    [old] = [d for d in client.published(uri, 1)["diagnostics"] if d["code"] == "DN401"]
    assert old["range"]["start"]["line"] == 20
    # version 2: three lines above everything (CRLF and a lone CR are LSP line breaks)
    client.change(uri, 2, [{"range": start_of(0), "text": "# a\r\n# b\r# c\n"}])
    assert [d["range"]["start"]["line"] for d in client.published(uri, 2)["diagnostics"]
            if d["code"] == "DN401"] == [23]
    fix, disable = actions_for(client, uri, old)  # the version-1 diagnostic
    assert fix["title"] == "Fix DN401"
    change = fix["edit"]["documentChanges"][0]
    assert change["textDocument"]["version"] == 2
    assert change["edits"] == [{"range": {"start": {"line": 16, "character": 8},
                                          "end": {"line": 16, "character": 10}},
                                "newText": "18"}]
    inserted = disable["edit"]["documentChanges"][0]["edits"]
    assert inserted == [{"range": start_of(23),
                         "newText": "# dnlint: disable-next-line=DN401\r\n"}]
    # version 3: the finding's own line rewritten: what the old diagnostic was about is gone
    client.change(uri, 3, [{"range": {"start": {"line": 23, "character": 8},
                                      "end": {"line": 23, "character": 9}}, "text": "2"}])
    assert [d["code"] for d in client.published(uri, 3)["diagnostics"]] == ["DN013", "DN401"]
    assert actions_for(client, uri, old) == []
    assert log_messages(client) == []
    assert client.close() == 0


def test_an_action_on_a_diagnostic_whose_finding_is_gone_is_not_offered(client: Client,
                                                                         tmp_path: Path) -> None:
    client.initialize()
    uri = (tmp_path / "a.cfg").as_uri()
    client.open(uri, WARNED_CFG)
    [old] = client.published(uri, 1)["diagnostics"]  # DN103 on subdivisions=24
    client.change(uri, 2, [{"range": {"start": {"line": 2, "character": 13},
                                      "end": {"line": 2, "character": 15}}, "text": "16"}])
    assert client.published(uri, 2)["diagnostics"] == []
    assert actions_for(client, uri, old) == []
    # the text back: the old diagnostic stands for the finding again
    client.change(uri, 3, [{"range": {"start": {"line": 2, "character": 13},
                                      "end": {"line": 2, "character": 15}}, "text": "24"}])
    assert [d["range"]["start"]["line"] for d in client.published(uri, 3)["diagnostics"]] \
        == [2]
    [disable] = actions_for(client, uri, old)
    assert disable["edit"]["documentChanges"][0]["edits"][0]["range"] == start_of(2)
    # a client that drops ``data`` and moves the range: the action is still at the finding
    bare = {k: v for k, v in old.items() if k != "data"}
    moved = {**bare, "range": {"start": {"line": 0, "character": 0},
                               "end": {"line": 0, "character": 5}}}
    [disable] = actions_for(client, uri, moved)
    assert disable["edit"]["documentChanges"][0]["edits"][0]["range"] == start_of(2)
    assert client.close() == 0


def test_a_finding_about_the_whole_file_is_disabled_at_the_top(tmp_path: Path) -> None:
    from dnlint.diagnostics import new_diagnostic
    from dnlint.lsp.actions import code_actions
    from dnlint.lsp.analysis import Analysis
    from dnlint.lsp.pipeline import Settings, lint_text
    from dnlint.lsp.text import UTF16, TextDocument
    from dnlint.settings.config import ConfigFinder

    doc = TextDocument("file:///a.cfg", "# x\r\n" + WARNED_CFG, 4)
    linted = lint_text(doc.text, str(tmp_path / "a.cfg"), ConfigFinder(disabled=True),
                       Settings())
    linted.result.diagnostics.append(new_diagnostic(
        "DN121", None, None, "training needs more memory than the card has"))
    analysis = Analysis(doc, linted, UTF16, str(tmp_path / "a.cfg"), "a.cfg", Settings())
    whole = next(d for d in analysis.diagnostics() if d["code"] == "DN121")
    assert whole["data"] == {"version": 4, "line": None}
    server: Any = SimpleNamespace(document_changes=False, disable_comment=True, fix_all=False)
    [action] = code_actions(server, analysis, {"context": {"diagnostics": [whole]}})
    assert action["title"] == "Disable DN121 for this file"
    assert action["edit"]["changes"]["file:///a.cfg"] == [
        {"range": start_of(0), "newText": "# dnlint: disable-file=DN121\r\n"}]


@pytest.mark.parametrize("body", [b"null", b"5", b'"x"', b"[]"])
def test_a_frame_that_is_no_message_is_refused_and_the_session_goes_on(client: Client,
                                                                       body: bytes) -> None:
    """A body of 'null' read as the end of the stream, and the server stopped silently."""
    client.initialize()
    write(client, b"Content-Length: %d\r\n\r\n" % len(body) + body)
    deadline = time.monotonic() + TIMEOUT
    while None not in client.responses:
        client._pump(deadline)
    refused = client.responses.pop(None)
    assert refused["error"] == {"code": -32600, "message": "not a JSON-RPC message"}
    client.send({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": "file:///none.cfg"},
                            "position": {"line": 0, "character": 0}}})
    while 7 not in client.responses:
        client._pump(deadline)
    assert client.responses.pop(7)["result"] is None
    assert client.close() == 0
