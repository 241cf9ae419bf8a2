"""dnlint-lsp end to end: the real server over stdio, driven as an editor drives it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import WARNED_CFG as CFG
from conftest import need_shared, oracle
from lsp_client import PULL_CAPABILITIES, YOLO_HEAD, Client, server_command

# CFG: one DN103 on line 3 (LSP line 2), at "24"

HEAD = YOLO_HEAD + """
[route]
layers=-3

[shortcut]
from=-2
activation=linear
"""


def uri_of(path: Path) -> str:
    return path.as_uri()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    started = Client(cwd=tmp_path)
    yield started
    started.kill()


def codes(published: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
            for d in published["diagnostics"]]


def position(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


# --- lifecycle ---------------------------------------------------------------------------------
def test_initialize_accepts_stdio_and_exits_0_after_shutdown(client: Client) -> None:
    result = client.initialize()
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "dnlint-lsp"
    assert capabilities["positionEncoding"] == "utf-16"
    assert capabilities["textDocumentSync"]["change"] == 2
    assert "diagnosticProvider" not in capabilities  # a push client
    assert client.close() == 0


def test_the_console_script_is_declared_and_answers_version() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                              .read_text("utf-8"))
    assert pyproject["project"]["scripts"]["dnlint-lsp"] == "dnlint.lsp:run"
    done = subprocess.run([*server_command()[:-1], "--version"], capture_output=True,
                          timeout=30, check=False)
    assert done.returncode == 0 and done.stdout == b""
    assert done.stderr.startswith(b"dnlint-lsp ")


def test_exits_by_itself_when_stdin_closes(tmp_path: Path) -> None:
    process = subprocess.run(server_command(), input=b"", capture_output=True, timeout=30,
                             check=False, cwd=tmp_path)
    assert process.stdout == b""  # nothing but frames, and there were none to answer
    assert process.returncode == 1  # the client vanished without shutdown


def test_exit_without_shutdown_is_status_1(client: Client) -> None:
    client.initialize()
    client.notify("exit")
    assert client.process.wait(timeout=30) == 1


def test_a_frame_too_large_to_be_lsp_ends_the_session(tmp_path: Path) -> None:
    frame = b"Content-Length: 99999999999\r\n\r\n{}"
    done = subprocess.run(server_command(), input=frame, capture_output=True, timeout=30,
                          check=False, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, b"")


def test_unknown_argument_is_refused() -> None:
    done = subprocess.run([*server_command()[:-1], "--tcp"], capture_output=True, timeout=30,
                          check=False)
    assert done.returncode == 2
    assert b"unknown argument" in done.stderr
    assert done.stdout == b""


def test_requests_before_initialize_and_unknown_methods(client: Client) -> None:
    early = client.request_raw("textDocument/hover", {})
    assert early["error"]["code"] == -32002
    client.initialize()
    unknown = client.request_raw("textDocument/rename", {})
    assert unknown["error"]["code"] == -32601
    assert client.close() == 0


# --- diagnostics: push -------------------------------------------------------------------------
def test_push_on_open_change_and_close(client: Client, tmp_path: Path) -> None:
    client.initialize(root=tmp_path)
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG, version=1)
    first = client.published(uri, 1)
    assert codes(first) == [("DN103", 2, 13)]
    diagnostic = first["diagnostics"][0]
    assert diagnostic["range"]["end"] == position(2, 15)
    assert diagnostic["source"] == "dnlint"
    assert diagnostic["severity"] == 2
    # incremental: subdivisions=24 -> subdivisions=16
    client.change(uri, 2, [{"range": {"start": position(2, 13), "end": position(2, 15)},
                            "text": "16"}])
    assert client.published(uri, 2)["diagnostics"] == []
    # full sync
    client.change(uri, 3, [{"text": CFG.replace("channels=3", "channels=3\nbogus=1")}])
    assert codes(client.published(uri, 3)) == [("DN103", 2, 13), ("DN201", 6, 0)]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    closed = client.published(uri)
    assert closed["diagnostics"] == []
    assert client.close() == 0


def test_a_burst_of_changes_is_linted_once_at_its_newest_version(client: Client,
                                                                 tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG, version=1)
    client.published(uri, 1)
    for version in range(2, 60):
        client.change(uri, version, [{"text": CFG if version % 2 else CFG.replace("24", "8")}])
    last = client.published(uri, 59)
    assert codes(last) == [("DN103", 2, 13)]
    client.drain(0.3)
    pushed = [n["params"].get("version") for n in client.notifications
              if n["method"] == "textDocument/publishDiagnostics"]
    assert all(v is not None and v <= 59 for v in pushed)
    assert client.close() == 0


# --- diagnostics: pull -------------------------------------------------------------------------
def test_pull_client_is_never_pushed_to(client: Client, tmp_path: Path) -> None:
    result = client.initialize(PULL_CAPABILITIES)
    assert result["capabilities"]["diagnosticProvider"]["identifier"] == "dnlint"
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG, version=1)
    report = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert report["kind"] == "full"
    assert [(d["code"], d["range"]["start"]["line"]) for d in report["items"]] == [("DN103", 2)]
    again = client.request("textDocument/diagnostic", {
        "textDocument": {"uri": uri}, "previousResultId": report["resultId"]})
    assert again == {"kind": "unchanged", "resultId": report["resultId"]}
    client.change(uri, 2, [{"range": {"start": position(2, 13), "end": position(2, 15)},
                            "text": "16"}])
    changed = client.request("textDocument/diagnostic", {
        "textDocument": {"uri": uri}, "previousResultId": report["resultId"]})
    assert changed["kind"] == "full" and changed["items"] == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    client.drain(0.3)
    assert not [n for n in client.notifications
                if n["method"] == "textDocument/publishDiagnostics"]
    assert client.close() == 0


# --- ranges in every encoding ----------------------------------------------------------------
ASTRAL = ("[net]\nwidth=32\nheight=32\nchannels=3\n\n"
          "# dnlint: disable-next-line=\U0001F600,DN999\n"
          "[convolutional]\nfilters=16\nsize=3\nactivation=l\U0001F600\n")


@pytest.mark.parametrize(("encoding", "start", "end", "value_end"),
                         [("utf-16", 31, 36, 14), ("utf-8", 33, 38, 16),
                          ("utf-32", 30, 35, 13)])
def test_ranges_in_the_negotiated_encoding(client: Client, tmp_path: Path, encoding: str,
                                           start: int, end: int, value_end: int) -> None:
    result = client.initialize(encodings=[encoding, "utf-16"])
    assert result["capabilities"]["positionEncoding"] == encoding
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, ASTRAL)
    found = {(d["code"], d["range"]["start"]["character"]): d["range"]
             for d in client.published(uri)["diagnostics"]}
    # DN999 after the emoji: the emoji shifts it by one UTF-16 unit, three UTF-8 bytes
    assert found[("DN902", start)] == {"start": position(5, start), "end": position(5, end)}
    # the unknown activation ends after the emoji
    assert found[("DN207", 11)]["end"] == position(9, value_end)
    assert client.close() == 0


def test_lone_cr_lines_map_to_lsp_lines(client: Client, tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    # old-Mac line ends: dnlint (and Darknet) read one line, LSP shows three
    client.open(uri, "[net]\rbatch=64\rsubdivisions=24\r")
    assert codes(client.published(uri)) == [
        ("DN005", 0, 0), ("DN019", 0, 0), ("DN106", 0, 0),
        ("DN013", 2, 15)]  # dnlint's 1:31, the last CR: the end of LSP line 2
    assert client.close() == 0


# --- the same findings as the CLI ------------------------------------------------------------
def cli_findings(paths: list[Path]) -> dict[str, list[tuple[str, int | None, int | None]]]:
    """(code, line, column) of each finding of one ``dnlint --format json`` run, by path."""
    done = subprocess.run([sys.executable, "-m", "dnlint", "--format", "json",
                           *(str(p) for p in paths)],
                          capture_output=True, timeout=120, check=False, cwd=paths[0].parent)
    report = json.loads(done.stdout)
    return {f["path"]: [(d["code"], d["line"], d["column"]) for d in f["diagnostics"]]
            for f in report["files"]}


def test_findings_equal_the_cli_on_every_rule_fixture(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
    texts: dict[Path, str] = {}
    for path in sorted(root.glob("*.cfg")):
        header, _, data = path.read_bytes().partition(b"\n")  # the header is the test's own
        if b"--" in header:
            continue  # a dialect or flags of its own
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # an editor could not show these bytes as they are
        copy = tmp_path / path.name
        copy.write_bytes(data)
        texts[copy] = text
    assert len(texts) > 20
    expected = cli_findings(list(texts))
    client = Client(cwd=tmp_path)
    try:
        client.initialize(encodings=["utf-32"])
        for number, (copy, text) in enumerate(texts.items()):
            uri = copy.as_uri()
            client.open(uri, text, version=number)
            got = client.published(uri, number)["diagnostics"]
            cli = expected[str(copy)]
            assert [d["code"] for d in got] == [c for c, _, _ in cli], copy.name
            if re.search(r"\r(?!\n)", text):
                continue  # a lone CR splits dnlint's line in the editor (tested on its own)
            lines = text.split("\n")
            for diagnostic, (_, line, column) in zip(got, cli, strict=True):
                if line is None:
                    continue
                start = diagnostic["range"]["start"]
                assert start["line"] == line - 1, copy.name
                if column is not None and not (line == 1 and text.startswith("\ufeff")):
                    line_text = lines[line - 1].removesuffix("\r")
                    assert start["character"] == min(column - 1, len(line_text)), copy.name
    finally:
        client.kill()


def test_another_tools_ini_file_gets_no_findings(client: Client, tmp_path: Path) -> None:
    client.initialize()
    setup = uri_of(tmp_path / "setup.cfg")
    client.open(setup, "[metadata]\nname = demo\n\n[flake8]\nmax-line-length = 100\n")
    assert client.published(setup)["diagnostics"] == []
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": setup}}) == []
    # a cfg that starts with a layer is a Darknet cfg with an error, not another tool's file
    layer_first = uri_of(tmp_path / "a.cfg")
    client.open(layer_first, "[convolutional]\nfilters=16\n")
    assert [c for c, _, _ in codes(client.published(layer_first))] == ["DN004"]
    assert client.close() == 0


# --- configuration -----------------------------------------------------------------------------
def test_configuration_found_from_the_files_folder_and_reloaded(tmp_path: Path) -> None:
    project = tmp_path / "project"
    nested = project / "models" / "deep"
    nested.mkdir(parents=True)
    config = project / ".dnlint.toml"
    config.write_text('ignore = ["DN103"]\n')
    client = Client(cwd=tmp_path)  # the server's own folder has no configuration
    try:
        client.initialize(root=tmp_path)
        uri = uri_of(nested / "a.cfg")
        client.open(uri, CFG)
        assert client.published(uri)["diagnostics"] == []
        config.write_text('ignore = ["DN201"]\n')
        client.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": config.as_uri(), "type": 2}]})
        assert codes(client.published(uri)) == [("DN103", 2, 13)]
        assert client.close() == 0
    finally:
        client.kill()


def test_without_a_file_watcher_a_save_reads_the_configuration_again(tmp_path: Path) -> None:
    config = tmp_path / ".dnlint.toml"
    config.write_text('ignore = ["DN103"]\n')
    client = Client(cwd=tmp_path)
    try:
        client.initialize(root=tmp_path)  # PUSH_CAPABILITIES: no didChangeWatchedFiles
        uri = uri_of(tmp_path / "a.cfg")
        client.open(uri, CFG)
        assert client.published(uri)["diagnostics"] == []
        config.write_text("ignore = []\n")
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        assert codes(client.published(uri)) == [("DN103", 2, 13)]
        assert client.close() == 0
    finally:
        client.kill()


def test_pull_client_is_asked_to_refresh_on_configuration_change(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.dnlint]\nignore = ["DN103"]\n')
    client = Client(cwd=tmp_path)
    try:
        client.initialize(PULL_CAPABILITIES, root=tmp_path)
        client.drain(0.2)
        registered = [r for r in client.server_requests
                      if r["method"] == "client/registerCapability"]
        watchers = registered[0]["params"]["registrations"][0]["registerOptions"]["watchers"]
        assert {w["globPattern"] for w in watchers} == {"**/.dnlint.toml", "**/pyproject.toml"}
        uri = uri_of(tmp_path / "a.cfg")
        client.open(uri, CFG)
        pull = {"textDocument": {"uri": uri}}
        assert client.request("textDocument/diagnostic", pull)["items"] == []
        config.write_text("[tool.dnlint]\n")
        client.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": config.as_uri(), "type": 2}]})
        client.drain(0.3)
        assert any(r["method"] == "workspace/diagnostic/refresh" for r in client.server_requests)
        items = client.request("textDocument/diagnostic", pull)["items"]
        assert [d["code"] for d in items] == ["DN103"]
        assert client.close() == 0
    finally:
        client.kill()


def test_a_broken_configuration_is_said_once_and_linting_goes_on(tmp_path: Path) -> None:
    (tmp_path / ".dnlint.toml").write_text("ignore = [\n")
    client = Client(cwd=tmp_path)
    try:
        client.initialize(root=tmp_path)
        uri = uri_of(tmp_path / "a.cfg")
        client.open(uri, CFG)
        assert codes(client.published(uri)) == [("DN103", 2, 13)]
        shown = client.wait_for("window/showMessage")
        assert "invalid TOML" in shown["message"]
        assert client.close() == 0
    finally:
        client.kill()


def test_settings_choose_the_dialect_and_rules(client: Client, tmp_path: Path) -> None:
    client.initialize(options={"ignore": ["DN103"], "dialect": "pjreddie"})
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG)
    assert client.published(uri)["diagnostics"] == []
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(0, 1)})
    assert "the original Darknet (pjreddie)" in hover["contents"]["value"]
    assert client.close() == 0


def test_settings_add_a_deployment_target(tmp_path: Path) -> None:
    from dnlint.rules import get_rule

    bad = get_rule("DN601").bad  # [conv]: a section name OpenCV's importer does not know
    for options, expected in (({}, []), ({"target": ["opencv"]}, ["DN601"])):
        client = Client(cwd=tmp_path)
        try:
            client.initialize(options=options)
            uri = uri_of(tmp_path / "a.cfg")
            client.open(uri, bad)
            assert [c for c, _, _ in codes(client.published(uri))] == expected
            assert client.close() == 0
        finally:
            client.kill()


def test_untitled_buffer_uses_the_workspace_configuration(tmp_path: Path) -> None:
    (tmp_path / ".dnlint.toml").write_text('ignore = ["DN103"]\n')
    client = Client(cwd=tmp_path.parent)
    try:
        client.initialize(root=tmp_path)
        client.open("untitled:Untitled-1", CFG)
        assert client.published("untitled:Untitled-1")["diagnostics"] == []
        assert client.close() == 0
    finally:
        client.kill()


# --- code actions ----------------------------------------------------------------------------
def head_document(client: Client, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    uri = uri_of(tmp_path / "head.cfg")
    client.open(uri, HEAD)
    found = client.published(uri)["diagnostics"]
    return uri, next(d for d in found if d["code"] == "DN401")


def test_head_finding_points_at_the_filters_line_and_fixes_it(client: Client,
                                                             tmp_path: Path) -> None:
    client.initialize()
    uri, head = head_document(client, tmp_path)
    assert head["range"]["start"]["line"] == 20  # classes=1 of [yolo]
    related = head["relatedInformation"][0]
    assert related["location"]["range"]["start"] == position(13, 0)  # filters=20
    context = {"diagnostics": [head]}
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": head["range"], "context": context})
    quickfix = actions[0]
    assert quickfix["kind"] == "quickfix" and quickfix["isPreferred"] is True
    change = quickfix["edit"]["documentChanges"][0]
    assert change["textDocument"] == {"uri": uri, "version": 1}
    assert change["edits"] == [{"range": {"start": position(13, 8), "end": position(13, 10)},
                                "newText": "18"}]
    disable = actions[1]
    assert disable["title"] == "Disable DN401 for this line"
    inserted = disable["edit"]["documentChanges"][0]["edits"][0]
    assert inserted == {"range": {"start": position(20, 0), "end": position(20, 0)},
                        "newText": "# dnlint: disable-next-line=DN401\n"}
    # the directive, applied, silences the finding (and is used: no DN901)
    client.change(uri, 2, [{"range": inserted["range"], "text": inserted["newText"]}])
    assert "DN401" not in [c for c, _, _ in codes(client.published(uri, 2))]
    # a quickfix made for version 1 is not offered on version 2
    stale = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": head["range"], "context": context})
    assert [a["title"] for a in stale if a["title"].startswith("Fix")] == []
    assert client.close() == 0


def test_fix_all_answers_the_parent_kind_and_only_safe_fixes(client: Client,
                                                             tmp_path: Path) -> None:
    client.initialize(capabilities={})  # no documentChanges: plain changes
    uri, head = head_document(client, tmp_path)
    source_only = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": head["range"],
        "context": {"diagnostics": [], "only": ["source.fixAll"]}})
    assert [a["kind"] for a in source_only] == ["source.fixAll.dnlint"]
    edits = source_only[0]["edit"]["changes"][uri]
    assert edits == [{"range": {"start": position(13, 8), "end": position(13, 10)},
                      "newText": "18"}]  # the smallest edit, not the whole document
    quick_only = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": head["range"],
        "context": {"diagnostics": [head], "only": ["quickfix"]}})
    assert {a["kind"] for a in quick_only} == {"quickfix"}
    assert client.close() == 0


def test_no_disable_action_for_a_syntax_error(client: Client, tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, "width=1\n" + CFG)
    found = client.published(uri)["diagnostics"]
    syntax = next(d for d in found if d["code"].startswith("DN0") and d["severity"] == 1)
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": syntax["range"],
        "context": {"diagnostics": [syntax], "only": ["quickfix"]}})
    assert not [a for a in actions if a["title"].startswith("Disable")]
    assert client.close() == 0


# --- hover, hints, outline, definition, folding, completion -----------------------------------
@pytest.fixture
def head_client(tmp_path: Path) -> Iterator[tuple[Client, str]]:
    started = Client(cwd=tmp_path)
    started.initialize()
    uri = uri_of(tmp_path / "head.cfg")
    started.open(uri, HEAD)
    started.published(uri)
    yield started, uri
    started.kill()


def ask(pair: tuple[Client, str], method: str, **params: Any) -> Any:
    client, uri = pair
    return client.request(method, {"textDocument": {"uri": uri}, **params})


def test_hover_on_a_key_a_header_and_a_reference(head_client: tuple[Client, str]) -> None:
    key = ask(head_client, "textDocument/hover", position=position(7, 1))["contents"]["value"]
    assert key.startswith("**size** (int) in `[convolutional]`")
    assert "Darknet reads" not in key  # size=3 is read as written
    header = ask(head_client, "textDocument/hover", position=position(5, 3))
    assert header["contents"]["value"].startswith(
        "**#0 convolutional** `[convolutional]` (line 6): 16 3x3 /1")
    assert "input 64x64x3 → output 64x64x16" in header["contents"]["value"]
    route = ask(head_client, "textDocument/hover", position=position(24, 8))
    assert route["contents"]["value"].startswith("resolves to **#0 convolutional**")
    assert route["range"] == {"start": position(24, 7), "end": position(24, 9)}
    shortcut = ask(head_client, "textDocument/hover", position=position(27, 6))
    assert shortcut["contents"]["value"].startswith("resolves to **#2 yolo**")


def test_a_net_section_without_options_is_still_the_net(client: Client,
                                                        tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, "[net]\n\n[convolutional]\nfilters=16\n")
    client.published(uri)
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(0, 2)})
    assert hover["contents"]["value"].startswith("**[net]**: the network's options")
    outline = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [(s["name"], s["kind"]) for s in outline] == [
        ("[net]", 2), ("#0 convolutional 0x0x0", 23)]  # no input size: Darknet's zeros
    assert client.close() == 0


def test_hover_says_what_darknet_makes_of_a_value(client: Client, tmp_path: Path) -> None:
    client.initialize(options={"dialect": "pjreddie"})
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG.replace("size=3", "size=3.9"))
    client.published(uri)
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(9, 6)})
    assert "Darknet reads this line as `3`." in hover["contents"]["value"]
    client.change(uri, 2, [{"text": CFG.replace("leaky", "mish")}])
    client.published(uri, 2)
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(10, 2)})
    assert hover["contents"]["value"].endswith("Darknet uses `relu` instead.")  # pjreddie
    assert client.close() == 0


def test_hover_on_a_code_in_a_directive(client: Client, tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG.replace("subdivisions", "# dnlint: disable-next-line=DN103\n"
                                                 "subdivisions"))
    assert client.published(uri)["diagnostics"] == []
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(2, 30)})
    assert hover["contents"]["value"].startswith("```text\nDN103 ")
    assert client.close() == 0


def test_go_to_the_referenced_layer(head_client: tuple[Client, str]) -> None:
    uri = head_client[1]
    found = ask(head_client, "textDocument/definition", position=position(24, 8))
    assert found == {"uri": uri, "range": {"start": position(5, 0), "end": position(5, 15)}}
    assert ask(head_client, "textDocument/definition", position=position(1, 2)) is None


def test_inlay_hints_symbols_and_folding(head_client: tuple[Client, str]) -> None:
    hints = ask(head_client, "textDocument/inlayHint",
                range={"start": position(0, 0), "end": position(40, 0)})
    assert [(h["position"]["line"], h["label"]) for h in hints] == [
        (5, "#0 64x64x16"), (12, "#1 64x64x20"), (17, "#2 64x64x18"), (23, "#3 64x64x16"),
        (26, "#4 64x64x16")]
    assert hints[0]["position"] == position(5, 15)
    only = ask(head_client, "textDocument/inlayHint",
               range={"start": position(12, 0), "end": position(12, 5)})
    assert [h["label"] for h in only] == ["#1 64x64x20"]
    outline = ask(head_client, "textDocument/documentSymbol")
    assert [s["name"] for s in outline] == [
        "[net]", "#0 convolutional 64x64x16", "#1 convolutional 64x64x20", "#2 yolo 64x64x18",
        "#3 route 64x64x16", "#4 shortcut 64x64x16"]
    for symbol in outline:
        inner, outer = symbol["selectionRange"], symbol["range"]
        assert outer["start"] == inner["start"] and outer["end"]["line"] >= inner["end"]["line"]
    assert outline[1]["range"]["end"] == position(10, 16)
    folds = ask(head_client, "textDocument/foldingRange")
    assert [(f["startLine"], f["endLine"]) for f in folds] == [
        (0, 3), (5, 10), (12, 15), (17, 21), (23, 24), (26, 28)]


@pytest.mark.parametrize("name", ["yolov4-p6.cfg", "yolov3-tiny.cfg", "yolov4-tiny.cfg"])
def test_inlay_hints_show_the_shapes_darknet_builds(name: str, tmp_path: Path) -> None:
    """The shape after each header is the one AlexeyAB's Darknet printed for that layer."""
    shared = need_shared()
    built = oracle("alexeyab.json")[f"cfg/{name}"]["layers"]
    text = (shared / "corpus" / "alexeyab" / "cfg" / name).read_text("utf-8")
    client = Client(cwd=tmp_path)
    try:
        client.initialize(options={"dialect": "alexeyab"})
        uri = uri_of(tmp_path / name)
        client.open(uri, text)
        client.published(uri)
        hints = client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": position(0, 0), "end": position(10**6, 0)}})
        assert [h["label"] for h in hints] == [
            f"#{layer['i']} {'x'.join(str(n) for n in layer['out'])}" for layer in built]
        lines = text.split("\n")
        assert all(lines[h["position"]["line"]].startswith("[") for h in hints)
        assert client.close() == 0
    finally:
        client.kill()


def test_completion_of_sections_options_and_values(client: Client, tmp_path: Path) -> None:
    client.initialize()
    uri = uri_of(tmp_path / "a.cfg")
    client.open(uri, CFG + "\n[\n")
    client.published(uri)
    sections = client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": position(12, 1)})
    names = {item["label"] for item in sections}
    assert {"convolutional", "yolo", "route", "net"} <= names
    assert "conv" in names  # AlexeyAB's parser takes the short name too
    yolo = next(item for item in sections if item["label"] == "yolo")
    assert yolo["textEdit"]["newText"] == "yolo]"
    client.change(uri, 2, [{"text": CFG + "\n"}])
    client.published(uri, 2)
    options = client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": position(11, 0)})
    labels = {item["label"] for item in options}
    assert {"stride", "pad", "batch_normalize"} <= labels
    assert "filters" not in labels  # given already
    assert "classes" not in labels  # a [yolo] option
    values = client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": position(10, 11)})
    assert {"leaky", "mish", "linear", "relu"} <= {item["label"] for item in values}
    assert client.close() == 0


# --- never crash -----------------------------------------------------------------------------
def test_bad_frames_and_hostile_buffers_never_stop_the_server(client: Client,
                                                              tmp_path: Path) -> None:
    client.initialize(encodings=["utf-8"])
    assert client.process.stdin is not None
    client.process.stdin.write(b"Content-Length: 5\r\n\r\n{nope")
    client.process.stdin.flush()
    client.send({"jsonrpc": "2.0", "id": 999, "method": "textDocument/hover", "params": None})
    client.notify("textDocument/didChange", {"textDocument": 7})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": 3}})
    uri = uri_of(tmp_path / "junk.cfg")
    junk = "".join(chr(c) for c in range(0, 0x3000, 7)) * 220  # 1.04 MiB of UTF-8
    client.open(uri, junk + "\udc80\ud800\x00\u2028\r")
    client.published(uri)
    for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
        for line in (0, 5, 10**9):
            answer = client.request_raw(method, {"textDocument": {"uri": uri},
                                                 "position": position(line, 3)})
            assert "error" not in answer, answer
    for method in ("textDocument/documentSymbol", "textDocument/foldingRange"):
        assert "error" not in client.request_raw(method, {"textDocument": {"uri": uri}})
    failures = [n["params"]["message"] for n in client.notifications
                if n["method"] == "window/logMessage"]
    assert failures == []
    assert client.close() == 0
