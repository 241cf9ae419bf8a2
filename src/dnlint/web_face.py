"""The web page's face on dnlint: text and settings in, plain JSON-able data out.

The page (``web/``) runs dnlint's pure wheel in Pyodide; its worker calls :func:`lint`,
:func:`details`, :func:`fix_all`, :func:`apply_fix` and :func:`display_text` and only moves
what they return. On a keystroke it asks :func:`lint` for the findings alone (``layers`` and
``graph`` false), then :func:`details` for the table, graph and weights verdict of that same
run, without linting again.
Everything goes through the public API (:func:`dnlint.api.new_run`, the run the ``dnlint``
command builds from its flags) and the command's own reporters, so a finding here is the
finding ``dnlint --format json --no-config --stdin-filename PATH -`` prints for the same bytes
and flags. Nothing here imports numpy, click or rich (none of them is in the page).

``options`` (every key optional): ``dialect`` ("auto", "pjreddie", "alexeyab", "hank"),
``targets`` (["opencv", ...]), ``recipe`` (true: the opt-in training-recipe rules, as
``--extend-select DN7``), ``select``/``ignore`` (rule lists), ``gpu_memory`` ("8G"),
``weights`` (a list of ``{"path": ...}`` for a file already in the file system, or
``{"name": ..., "size": ..., "head": bytes}``: its size and first bytes, all the weights check
reads), ``data`` and ``names`` (``{"name": ..., "text": ...}``: an ``obj.data`` and its names
file), ``layers`` and ``graph`` (false: skip the layer table or the DOT graph), ``max_rows``
and ``max_graph`` (a network with more layers gets only its first ``max_rows`` rows, without
the memory columns, and no graph: a page never waits minutes for a table nobody reads).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from dnlint import __version__
from dnlint.api import new_run

if TYPE_CHECKING:
    from dnlint.result import FileResult

__all__ = ["apply_fix", "details", "details_json", "display_text", "fix_all", "fix_all_json",
           "lint", "lint_json", "version"]

DEFAULT_PATH = "model.cfg"  # what text typed or pasted into the page is linted as
SETTINGS_KEYS = ("dialect", "targets", "recipe", "select", "ignore", "gpu_memory")


def version() -> str:
    return __version__


def display_text(data: bytes) -> str:
    """The text an editor shows for a file's bytes: UTF-16 by its byte-order mark, else UTF-8
    (a UTF-8 BOM kept as U+FEFF, invalid bytes as U+FFFD; the lint reads the bytes themselves
    until the text is edited)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace")


def lint(text: str | bytes, path: str = DEFAULT_PATH,
         options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Lint ``text`` as the file ``path``: its findings (the CLI's JSON entries, each with
    ``name`` and ``from``/``to``, UTF-16 offsets into :func:`display_text` of the text), the
    dialect and why, the rules' explanations, the layer table, the DOT graph and the weights
    verdict."""
    global _last
    _last = None  # the previous run's network is freed before this one is built
    opts = dict(options or {})
    raw = _bytes(text)
    with _companions(opts) as files:
        results = list(_run(raw, path, opts, files).results())
    report = _report(raw, text if isinstance(text, str) else None, results, opts, files)
    if results:
        _last = _Last(results[0], files.root)
    return report


def details(options: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The layer table, DOT graph and weights verdict of the last :func:`lint`'s run (as its
    report's ``layers``, ``graph`` and ``weights``, with ``options``' ``layers``, ``graph``,
    ``max_rows`` and ``max_graph``), worked out from the network that run built; None when
    there was no run, or its details were already given (they are given once: the run is
    then let go)."""
    global _last
    last, _last = _last, None
    if last is None:
        return None
    opts = dict(options or {})
    weights = _weights(last.result, last.root)  # before the table predicts a layout
    return {"layers": _layers(last.result, opts.get("max_rows"))
            if opts.get("layers", True) else None,
            "graph": _graph(last.result, opts.get("max_graph"))
            if opts.get("graph", True) else None,
            "weights": weights}


def fix_all(text: str | bytes, path: str = DEFAULT_PATH,
            options: Mapping[str, Any] | None = None, unsafe: bool = False) -> dict[str, Any]:
    """``dnlint --fix [--unsafe-fixes]`` on the text: the fixed text and how many findings
    the fixes removed (the passes, bounds and refusals of the command's own fixer)."""
    opts = dict(options or {})
    raw = _bytes(text)
    with _companions(opts) as files:
        results = list(_run(raw, path, opts, files, fix="fix", unsafe=unsafe).results())
    first = results[0] if results else None
    data = first.extra.get("fixed_data", raw) if first is not None else raw
    fixed = first.extra.get("fixed", 0) if first is not None else 0
    return {"text": display_text(data), "changed": data != raw, "fixed": fixed}


def lint_json(text: str | bytes, path: str = DEFAULT_PATH,
              options: Mapping[str, Any] | None = None) -> str:
    """:func:`lint` as JSON text (``null`` stays null: what the worker hands the page)."""
    return json.dumps(lint(text, path, options))


def details_json(options: Mapping[str, Any] | None = None) -> str:
    """:func:`details` as JSON text."""
    return json.dumps(details(options))


def fix_all_json(text: str | bytes, path: str = DEFAULT_PATH,
                 options: Mapping[str, Any] | None = None, unsafe: bool = False) -> str:
    """:func:`fix_all` as JSON text."""
    return json.dumps(fix_all(text, path, options, unsafe))


def apply_fix(text: str | bytes, edits: Sequence[Mapping[str, Any]]) -> str:
    """One finding's fix (its JSON ``edits``: byte ranges of the text's UTF-8 bytes, or of
    the file's bytes) applied: the new text."""
    data = _bytes(text)
    for edit in sorted(edits, key=lambda e: (e["start"], e["end"]), reverse=True):
        data = data[:edit["start"]] + str(edit["content"]).encode("utf-8") + data[edit["end"]:]
    return display_text(data)


# --- the run ---------------------------------------------------------------------------------
def _bytes(text: str | bytes) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    return bytes(text)


class _Files:
    """Where the companions of the text were written: weights files, the .data file."""

    def __init__(self, root: str) -> None:
        self.root = root  # "" when there are none
        self.weights: list[str] = []
        self.data: str | None = None


class _Last:
    """The last lint's result, kept for :func:`details`, and where its companions were."""

    def __init__(self, result: FileResult, root: str) -> None:
        self.result = result
        self.root = root


_last: _Last | None = None


@contextmanager
def _companions(opts: Mapping[str, Any]) -> Iterator[_Files]:
    """The weights and .data/.names files of ``opts`` as files the run can read, in a
    directory of their own for the run's time (none without companions: a keystroke's lint
    makes no directory)."""
    if not opts.get("weights") and not opts.get("data"):
        yield _Files("")
        return
    with tempfile.TemporaryDirectory(prefix="dnlint-web-") as root:
        files = _Files(root)
        for entry in opts.get("weights") or ():
            files.weights.append(_weights_file(root, entry))
        data = opts.get("data")
        if data:
            files.data = _write(root, str(data.get("name") or "obj.data"),
                                _bytes(data.get("text", "")))
            names = opts.get("names")
            if names:
                for where in _names_paths(str(data.get("text", "")), str(names.get("name", ""))):
                    _write(root, where, _bytes(names.get("text", "")))
        yield files


def _weights_file(root: str, entry: Mapping[str, Any]) -> str:
    """A weights file given by path, or one of its size whose first bytes are ``head`` (a
    sparse file: the check reads the size and the first kilobyte, never the payload)."""
    if entry.get("path"):
        return str(entry["path"])
    name = _write(root, str(entry.get("name") or "model.weights"), _bytes(entry.get("head", b"")))
    os.truncate(name, max(int(entry.get("size", 0)), 0))
    return name


def _names_paths(data_text: str, names_name: str) -> list[str]:
    """Where the run looks for the names file: each relative ``names=`` path of the .data
    text (under the data root), and the file's own name."""
    found = [os.path.basename(names_name) or "obj.names"]
    for line in data_text.splitlines():
        key, sep, value = line.partition("=")
        where = value.strip()
        if sep and key.strip() == "names" and where and not os.path.isabs(where) \
                and ".." not in where.replace("\\", "/").split("/"):
            found.append(where)
    return found


def _write(root: str, name: str, data: bytes) -> str:
    target = os.path.join(root, name.replace("\\", "/").lstrip("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as stream:
        stream.write(data)
    return target


def _run(raw: bytes, path: str, opts: Mapping[str, Any], files: _Files,
         fix: str | None = None, unsafe: bool = False) -> Any:
    dialect = opts.get("dialect") or "auto"
    return new_run(("-",), dialect=None if dialect == "auto" else str(dialect),
                   weights=files.weights, data=files.data,
                   data_root=files.root if files.data else None,
                   target=tuple(opts.get("targets") or ()), config=False,
                   select=opts.get("select") or None, ignore=opts.get("ignore") or (),
                   extend_select=("DN7",) if opts.get("recipe") else (),
                   gpu_memory=opts.get("gpu_memory") or None,
                   stdin_filename=path or DEFAULT_PATH, text=raw, fix=fix, unsafe_fixes=unsafe)


# --- the report ------------------------------------------------------------------------------
def _report(raw: bytes, typed: str | None, results: list[FileResult], opts: Mapping[str, Any],
            files: _Files) -> dict[str, Any]:
    from dnlint.reporters.json_ import diagnostic_json, file_json
    from dnlint.rules import find_rule

    if not results:
        return {"path": "", "dialect": None, "dialect_reason": "", "findings": [],
                "rules": {}, "layers": None, "graph": None, "weights": None}
    first = results[0]
    shown = display_text(raw) if typed is None else typed
    offsets = _Offsets(shown)
    findings = []
    for result in results:
        for d in result.diagnostics:
            entry = diagnostic_json(d, first.path)
            rule = find_rule(d.code)
            entry["name"] = rule.name if rule else ""
            for key in ("path", "message", "hint"):
                if key in entry:
                    entry[key] = _shown(entry[key], files.root)
            entry["from"], entry["to"] = offsets.span(d.line, d.column, d.end_line, d.end_column)
            findings.append(entry)
    explanations = {}
    for entry in findings:
        rule = find_rule(entry["code"])
        if rule is not None and rule.code not in explanations:
            explanations[rule.code] = rule.explanation()
    head = file_json(first)
    weights = _weights(first, files.root)
    return {
        "path": head["path"], "dialect": head["dialect"], "dialect_reason": head["dialect_reason"],
        "findings": findings, "rules": explanations,
        "layers": _layers(first, opts.get("max_rows")) if opts.get("layers", True) else None,
        "graph": _graph(first, opts.get("max_graph")) if opts.get("graph", True) else None,
        "weights": weights,
    }


def _shown(text: str, root: str) -> str:
    """A companion file's name as the user gave it, not where the face wrote it."""
    return text.replace(root.rstrip("/") + "/", "") if root else text


def _weights(result: FileResult, root: str) -> dict[str, Any] | None:
    """The verdict on the weights file the run checked (None without one)."""
    weights = result.checked_weights.to_json() if result.checked_weights is not None else None
    if weights is not None and weights.get("path"):
        weights["path"] = _shown(str(weights["path"]), root)
    return weights


def _layers(result: FileResult, limit: int | None) -> dict[str, Any] | None:
    """``--layers``: the JSON report's rows (shapes, params, BFLOPs, memory), each with the
    table's geometry and input column and its weights offsets, and the totals; over
    ``limit`` layers, the first ``limit`` rows without memory."""
    from dnlint.reporters.json_ import bflops_json, file_json
    from dnlint.reporters.table import geometry, input_shape

    network = result.network
    if network is None:
        return None
    count = len(network.layers)
    if limit is not None and count > limit:
        entry: dict[str, Any] = {}
        rows = [{"index": layer.index, "type": layer.type, "line": layer.line,
                 "input": list(layer.input), "output": list(layer.output),
                 "outputs": layer.outputs, "params": layer.params,
                 "bflops": bflops_json(network, layer), "memory": None}
                for layer in network.layers[:limit]]
    else:
        entry = file_json(result, show_layers=True)
        rows = entry.get("layers", [])
    report = result.weights
    offsets = {lay.index: lay for lay in report.layers} if report is not None else {}
    for row, layer in zip(rows, network.layers, strict=False):
        row["geometry"] = geometry(layer)
        row["input_text"] = input_shape(layer, network.layers)
        row["broken"] = bool(layer.broken)
        lay = offsets.get(layer.index)
        row["load_offset"] = lay.load_offset if lay is not None else None
        row["loaded_floats"] = lay.loaded_floats if lay is not None else None
    return {"rows": rows, "count": count, "memory": entry.get("memory"),
            "expected_bytes": report.expected_bytes if report is not None else None}


def _graph(result: FileResult, limit: int | None) -> str | None:
    """``--graph``'s DOT, or None without a network or over ``limit`` layers."""
    from dnlint.reporters.graph import to_dot

    if result.network is None or (limit is not None and len(result.network.layers) > limit):
        return None
    return to_dot([result])


class _Offsets:
    """dnlint's positions (lines at ``\\n``, columns in code points from 1) as offsets in
    UTF-16 code units, as JavaScript strings and CodeMirror count them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._ascii: bool | None = None
        self.starts = [0]  # where lines start, found as far as a finding needs (most files
        self.whole = False  # have a few findings near the top: no scan of the whole text)

    @property
    def ascii(self) -> bool:
        if self._ascii is None:
            self._ascii = self.text.isascii()
        return self._ascii

    def _find(self, line: int) -> None:
        """Find the starts of the lines up to ``line + 1`` (or all of them)."""
        starts, find = self.starts, self.text.find
        while not self.whole and len(starts) <= line:
            at = find("\n", starts[-1])
            if at < 0:
                self.whole = True
            else:
                starts.append(at + 1)

    def span(self, line: int | None, column: int | None, end_line: int | None,
             end_column: int | None) -> tuple[int | None, int | None]:
        if line is None:
            return None, None
        start = self.offset(line, column or 1)
        end = self.offset(end_line, end_column) if end_line and end_column else None
        if end is None or end < start:
            end = self.offset(line, None)  # the rest of the line
        return start, end

    def offset(self, line: int, column: int | None) -> int:
        """The UTF-16 offset of (line, column); column None: the end of the line."""
        self._find(max(line, 1))
        index = min(max(line, 1), len(self.starts)) - 1
        begin = self.starts[index]
        stop = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
        point = stop if column is None else min(begin + max(column, 1) - 1, stop)
        if self.ascii:
            return point
        return len(self.text[:point].encode("utf-16-le", "surrogatepass")) // 2
