"""dnlint-lsp under thousands of random incremental edits: its text never drifts from the
editor's and it keeps answering, whatever the edits leave in the buffer."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from lsp_client import Client

START = """\
[net]
width=64
height=64
channels=3

[convolutional]
filters=16
size=3
activation=leaky

[route]
layers=-1

[yolo]
mask=0,1,2
classes=1
"""
PIECES = ["\n", "\r\n", "\r", "\u2028", "\x0c", "\x85", "\x00", "\U0001F600", "\udc80", "é",
          "=", "[", "]", ",", "#", " ", "\t", "a", "7", "-1", "filters=", "[yolo]\n",
          "layers=-1,-4\n", "[convolutional]\nfilters=255\n", "# dnlint: disable=DN401\n"]


def line_starts(text: str) -> list[int]:
    """LSP's lines, found character by character (not as the server finds them)."""
    starts, at = [0], 0
    while at < len(text):
        if text[at] == "\r" and text[at + 1:at + 2] == "\n":
            at += 2
            starts.append(at)
        elif text[at] in "\r\n":
            at += 1
            starts.append(at)
        else:
            at += 1
    return starts


def content_length(text: str, starts: list[int], line: int) -> int:
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    body = text[starts[line]:end]
    return len(body) - (2 if body.endswith("\r\n") else 1 if body.endswith(("\r", "\n")) else 0)


def utf16(text: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in text)


def random_point(rng: random.Random, text: str, starts: list[int]) -> tuple[int, int, int]:
    """(offset, line, UTF-16 character) of a random position."""
    line = rng.randrange(len(starts))
    column = rng.randint(0, content_length(text, starts, line))
    offset = starts[line] + column
    return offset, line, utf16(text[starts[line]:offset])


def without_version(diagnostics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for d in diagnostics:
        d = dict(d)
        d.pop("data", None)
        d.pop("relatedInformation", None)
        out.append(d)
    return out


def test_random_incremental_edits_keep_the_text_and_the_server(tmp_path: Path) -> None:
    rng = random.Random(20261202)
    client = Client(cwd=tmp_path)
    try:
        client.initialize()
        uri = (tmp_path / "fuzz.cfg").as_uri()
        text = START
        client.open(uri, text, version=0)
        version = 0
        for step in range(3000):
            starts = line_starts(text)
            start, line_a, char_a = random_point(rng, text, starts)
            end, line_b, char_b = random_point(rng, text, starts)
            if end < start:
                start, end, line_a, char_a, line_b, char_b = (end, start, line_b, char_b,
                                                              line_a, char_a)
            if end - start > 6 or rng.random() < 0.6:  # mostly typing, some deleting
                end, line_b, char_b = start, line_a, char_a
            new = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
            text = text[:start] + new + text[end:]
            version += 1
            client.change(uri, version, [{
                "range": {"start": {"line": line_a, "character": char_a},
                          "end": {"line": line_b, "character": char_b}}, "text": new}])
            if step % 250 == 0:
                client.drain(0.0)
                where = random_point(rng, text, line_starts(text))
                for method in ("textDocument/hover", "textDocument/completion",
                               "textDocument/definition"):
                    answer = client.request_raw(method, {"textDocument": {"uri": uri},
                                                         "position": {"line": where[1],
                                                                      "character": where[2]}})
                    assert "error" not in answer, (method, answer)
        edited = client.published(uri, version)["diagnostics"]
        # the same text sent whole: any drift of the server's copy shows as a difference
        fresh = (tmp_path / "fresh.cfg").as_uri()
        client.open(fresh, text)
        whole = client.published(fresh)["diagnostics"]
        assert without_version(edited) == without_version(whole)
        hints = client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": 10**6, "character": 0}}})
        assert hints == client.request("textDocument/inlayHint", {
            "textDocument": {"uri": fresh},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": 10**6, "character": 0}}})
        failures = [n["params"]["message"] for n in client.notifications
                    if n["method"] == "window/logMessage"]
        assert failures == []  # no handler failed on the way
        assert len(text) > len(START) and text.count("[") > 3  # the edits kept a cfg to lint
        assert client.close() == 0
    finally:
        client.kill()
