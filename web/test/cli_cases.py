"""The cases the Node test runs through the page's Python (Pyodide), with what the dnlint
command prints for each: every rule's cfg examples (bad and good, in each dialect the rule
names, with its target and the recipe when it is one of its rules) and the bad inputs.

Run by web/test/worker.test.mjs with the checkout's sources (PYTHONPATH=src) under CPython;
prints one JSON document: [{"name", "data" (base64), "path", "options", "findings"}].
"""

from __future__ import annotations

import base64
import json
import re
import sys
from typing import Any

from click.testing import CliRunner

from dnlint.cli import main
from dnlint.rules import all_rules

_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[rnt0\\])")
_NAMED = {b"r": b"\r", b"n": b"\n", b"t": b"\t", b"0": b"\0", b"\\": b"\\"}


def example_bytes(text: str) -> bytes:
    """An example's bytes: UTF-8 with ``\\r``, ``\\x00`` and the like decoded (as
    tests/test_rule_examples.py reads them)."""
    def byte(match: re.Match[bytes]) -> bytes:
        escape = match.group(1)
        return bytes([int(escape[1:], 16)]) if escape[:1] == b"x" else _NAMED[escape]

    return _ESCAPE.sub(byte, text.encode("utf-8"))


def flags(options: dict[str, Any]) -> list[str]:
    out = []
    if options.get("dialect", "auto") != "auto":
        out += ["--dialect", options["dialect"]]
    for target in options.get("targets", ()):
        out += ["--target", target]
    if options.get("recipe"):
        out += ["--extend-select", "DN7"]
    return out


def cli_findings(data: bytes, path: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    result = CliRunner().invoke(main, ["--no-config", "--format", "json", "--stdin-filename",
                                       path, *flags(options), "-"], input=data)
    if result.exit_code not in (0, 1):
        raise SystemExit(f"dnlint failed on {path}: {result.output}")
    return [d for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]


def cases() -> list[tuple[str, bytes, dict[str, Any]]]:
    found = []
    for rule in all_rules():
        if rule.examples != "cfg":
            continue
        for dialect in rule.dialects:
            options = {"dialect": dialect.value if dialect else "auto",
                       "targets": [rule.target] if rule.target else [],
                       "recipe": rule.code.startswith("DN7")}
            for kind, text in (("bad", rule.bad), ("good", rule.good)):
                found.append((f"{rule.code} {kind} {options['dialect']}", example_bytes(text),
                              options))
    bad: list[tuple[str, bytes]] = [
        ("binary junk", bytes(range(256)) * 64),
        ("UTF-16", "\ufeff[net]\nwidth=32\nheight=32\n".encode("utf-16-le")),
        ("invalid UTF-8", b"[net]\nwidth=3\xff2\nheight=32\nchannels=3\n"),
        ("5 MB cfg", b"[net]\nwidth=64\nheight=64\nchannels=3\n"
         + (b"#" + b"x" * 78 + b"\n") * 62_000
         + b"[convolutional]\nfilters=8\nsize=1\n" * 2000 + b"[route]\nlayers=-999999\n"),
    ]
    found += [(name, data, {"dialect": "auto"}) for name, data in bad]
    return found


def main_() -> None:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    out = [{"name": name, "data": base64.b64encode(data).decode(), "path": "example.cfg",
            "options": options, "findings": cli_findings(data, "example.cfg", options)}
           for name, data, options in cases() if only in name]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main_()
