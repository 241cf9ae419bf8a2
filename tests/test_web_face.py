"""The web page's face (dnlint.web_face) gives exactly the command line's findings.

Each case lints the same bytes, path name and flags twice: through the face, and through
``dnlint --format json --no-config --stdin-filename PATH -``; the face's findings, less the
keys it adds for the editor (``name``, ``from``, ``to``), must equal the command's JSON
diagnostics. The cases are every rule's cfg examples (bad and good, in each dialect the rule
names, with its target), and the stock cfgs of ../shared/corpus in auto dialect.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import SHARED, need_shared
from dnlint import web_face
from dnlint.cli import main
from dnlint.rules import all_rules
from test_rule_examples import example_bytes

FACE_KEYS = ("name", "from", "to")
TINY = (Path(__file__).resolve().parent.parent / "fixtures/examples/tiny-detector.cfg").read_text()


def cli_json(data: bytes, path: str, flags: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["--no-config", "--format", "json", "--stdin-filename",
                                       path, *flags, "-"], input=data)
    assert result.exit_code in (0, 1), result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def cli_findings(data: bytes, path: str, flags: list[str]) -> list[dict[str, Any]]:
    return [d for f in cli_json(data, path, flags)["files"] for d in f["diagnostics"]]


def face_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in f.items() if k not in FACE_KEYS} for f in report["findings"]]


def flags_of(options: dict[str, Any]) -> list[str]:
    flags = []
    if options.get("dialect", "auto") != "auto":
        flags += ["--dialect", options["dialect"]]
    for target in options.get("targets", ()):
        flags += ["--target", target]
    if options.get("recipe"):
        flags += ["--extend-select", "DN7"]
    if options.get("gpu_memory"):
        flags += ["--gpu-memory", options["gpu_memory"]]
    return flags


def example_cases() -> list[tuple[str, bytes, dict[str, Any]]]:
    cases = []
    for rule in all_rules():
        if rule.examples != "cfg":
            continue
        for dialect in rule.dialects:
            options: dict[str, Any] = {"dialect": dialect.value if dialect else "auto",
                                       "targets": [rule.target] if rule.target else [],
                                       "recipe": rule.code.startswith("DN7")}
            for kind, text in (("bad", rule.bad), ("good", rule.good)):
                cases.append((f"{rule.code}-{kind}-{options['dialect']}", example_bytes(text),
                              options))
    return cases


EXAMPLES = example_cases()


@pytest.mark.parametrize(("name", "data", "options"), EXAMPLES, ids=[c[0] for c in EXAMPLES])
def test_face_gives_the_cli_findings_on_every_rule_example(
        name: str, data: bytes, options: dict[str, Any]) -> None:
    report = web_face.lint(data, "example.cfg", options)
    assert face_findings(report) == cli_findings(data, "example.cfg", flags_of(options))


def test_the_examples_cover_every_cfg_rule_and_find_something() -> None:
    bad = [c for c in EXAMPLES if "-bad-" in c[0]]
    assert len({c[0].split("-")[0] for c in bad}) == len([r for r in all_rules()
                                                          if r.examples == "cfg"])
    for name, data, options in bad[:5]:
        code = name.split("-")[0]
        assert code in [f["code"] for f in web_face.lint(data, "example.cfg", options)["findings"]]


def corpus() -> list[Path]:
    if not SHARED.is_dir():
        return []
    return sorted((SHARED / "corpus").rglob("*.cfg"))


@pytest.mark.parametrize("cfg", corpus(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_face_gives_the_cli_findings_on_the_stock_corpus(cfg: Path) -> None:
    data = cfg.read_bytes()
    report = web_face.lint(data, cfg.name, {"targets": ["opencv"]})
    assert face_findings(report) == cli_findings(data, cfg.name, ["--target", "opencv"])
    document = cli_json(data, cfg.name, ["--layers"])["files"][0]
    rows = report["layers"]["rows"] if report["layers"] else []
    assert [{k: r[k] for k in ("index", "type", "line", "input", "output", "params", "bflops")}
            for r in rows] == [{k: r[k] for k in ("index", "type", "line", "input", "output",
                                                  "params", "bflops")}
                               for r in document.get("layers", [])]
    assert report["dialect"] == document["dialect"]
    assert report["dialect_reason"] == document["dialect_reason"]


def test_the_corpus_is_there_or_the_corpus_test_says_why() -> None:
    need_shared()
    assert len(corpus()) >= 100


def test_ranges_are_utf16_offsets_of_the_editor_text() -> None:
    # the finding follows a non-BMP character (two UTF-16 units) and a CR kept in the text
    text = ("[net]\r\n# \U0001F600\nwidth=32\nheight=32\nchannels=3\n\n"
            "[convolutional]\nfilters=16\nfilter=3\nsize=3\n")
    report = web_face.lint(text)
    found = {f["code"]: f for f in report["findings"]}
    assert found["DN201"]["line"] == 9
    start = text.index("filter=3")
    assert (found["DN201"]["from"], found["DN201"]["to"]) == (start + 1, start + 1 + 6)
    assert text[found["DN201"]["from"] - 1:found["DN201"]["to"] - 1] == "filter"
    assert "DN013" in found  # the CRLF finding: the CR reached the lint


def test_fixes_are_the_cli_fixes() -> None:
    data = b"\xef\xbb\xbf" + TINY.replace("filters=18", "filters=21", 1).encode()
    report = web_face.lint(data)
    bom = next(f for f in report["findings"] if f["code"] == "DN014")
    assert bom["fix"] == {"applicability": "safe",
                          "edits": [{"start": 0, "end": 3, "content": ""}]}
    assert web_face.apply_fix(data, bom["fix"]["edits"]) == data[3:].decode()
    fixed = web_face.fix_all(data)
    result = CliRunner().invoke(main, ["--no-config", "--fix", "--stdin-filename", "model.cfg",
                                       "-"], input=data)
    assert fixed["changed"] is True
    assert fixed["text"].encode() == result.stdout_bytes


def test_weights_verdict_from_size_and_head_only(tmp_path: Path) -> None:
    header = (0).to_bytes(4, "little") + (2).to_bytes(4, "little") + (5).to_bytes(4, "little") \
        + bytes(8)
    size = 250 * 1024 * 1024
    report = web_face.lint(TINY, "tiny.cfg", {"weights": [{"name": "tiny.weights", "size": size,
                                                           "head": header}]})
    weights = tmp_path / "tiny.weights"
    with weights.open("wb") as stream:
        stream.write(header)
        stream.truncate(size)
    (tmp_path / "tiny.cfg").write_text(TINY)
    expected = cli_json(TINY.encode(), "tiny.cfg", ["--weights", str(weights)])
    cli = [d for f in expected["files"] for d in f["diagnostics"]]
    for entry in cli:
        entry["path"] = entry["path"].replace(str(tmp_path) + "/", "") if "path" in entry else None
        if entry["path"] is None:
            del entry["path"]
    assert face_findings(report) == cli
    assert [f["code"] for f in report["findings"]] == ["DN516"]
    assert report["weights"]["actual_bytes"] == size
    assert report["weights"]["path"] == "tiny.weights"


def test_data_and_names_files_are_checked_against_the_heads() -> None:
    data = {"name": "obj.data", "text": "classes=3\nnames=data/obj.names\n"}
    names = {"name": "obj.names", "text": "a\nb\n"}
    report = web_face.lint(TINY, "tiny.cfg", {"data": data, "names": names})
    assert [(f["code"], f["line"], f["message"]) for f in report["findings"]] == [
        ("DN413", line, "classes=3 here but data/obj.names has 2 names") for line in (95, 137)]


@pytest.mark.parametrize(("name", "data"), [
    ("binary", bytes(range(256)) * 8),
    ("utf16", "\ufeff[net]\nwidth=32\n".encode("utf-16-le")),
    ("invalid-utf8", b"[net]\nwidth=3\xff2\n"),
    # a 5 MB cfg: 62,000 comment lines, 2,000 layers and a route out of range
    ("big", b"[net]\nwidth=64\nheight=64\nchannels=3\n" + (b"#" + b"x" * 78 + b"\n") * 62_000
     + b"[convolutional]\nfilters=8\nsize=1\n" * 2000 + b"[route]\nlayers=-999999\n"),
])
def test_bad_input_gives_the_cli_findings(name: str, data: bytes) -> None:
    report = web_face.lint(data, "model.cfg", {"layers": False, "graph": False})
    assert face_findings(report) == cli_findings(data, "model.cfg", [])
    assert report["findings"], name
    assert isinstance(web_face.display_text(data), str)


def test_the_face_imports_neither_numpy_click_nor_rich() -> None:
    code = ("import sys, dnlint.web_face as f; f.lint(open(sys.argv[1]).read(), 'm.cfg', "
            "{'targets': ['opencv'], 'recipe': True}); f.fix_all('[net]\\n');"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'click', 'rich'}))")
    tiny = str(Path(__file__).resolve().parent.parent / "fixtures/examples/broken.cfg")
    out = subprocess.run([sys.executable, "-c", code, tiny], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_details_are_the_last_runs_table_graph_and_verdict_without_a_second_lint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    header = (0).to_bytes(4, "little") + (2).to_bytes(4, "little") + (5).to_bytes(4, "little") \
        + bytes(8)
    weights = [{"name": "tiny.weights", "size": 1000, "head": header}]
    whole = web_face.lint(TINY, "tiny.cfg", {"weights": weights, "max_rows": 3})
    quick = web_face.lint(TINY, "tiny.cfg", {"weights": weights, "layers": False,
                                             "graph": False})
    assert (quick["layers"], quick["graph"]) == (None, None)
    assert quick["findings"] == whole["findings"]

    def no_second_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("details linted again")

    monkeypatch.setattr(web_face, "new_run", no_second_run)
    found = web_face.details({"max_rows": 3})
    assert found == {"layers": whole["layers"], "graph": whole["graph"],
                     "weights": whole["weights"]}
    assert len(found["layers"]["rows"]) == 3
    assert found["weights"]["path"] == "tiny.weights"
    assert web_face.details() is None  # given once: the run is let go
    monkeypatch.undo()
    # without a weights file there is no verdict, though the table predicts the layout
    whole = web_face.lint(TINY, "tiny.cfg")
    web_face.lint(TINY, "tiny.cfg", {"layers": False, "graph": False})
    found = web_face.details()
    assert found is not None and found["layers"] == whole["layers"]
    assert (whole["weights"], found["weights"]) == (None, None)
    assert web_face.details_json() == "null"


def test_editor_offsets_find_only_the_lines_they_need() -> None:
    offsets = web_face._Offsets("a\nbb\n\U0001F600c\n")
    assert offsets.span(2, 1, 2, 3) == (2, 4)
    assert offsets.starts == [0, 2, 5]
    assert offsets.span(3, 2, None, None) == (7, 8)  # after the emoji: two UTF-16 units
    assert offsets.span(9, 1, None, None) == (9, 9)  # past the end: the last (empty) line
    assert offsets.starts == [0, 2, 5, 8]
