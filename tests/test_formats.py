"""Every --format, with golden output: text, concise, json, sarif, github, junit; --output."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from dnlint.cli import main
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.lint import FileResult
from dnlint.reporters.github import escape_data, escape_property, github_line
from dnlint.rules import all_rules

CFG = """\
[net]
batch=64
subdivisions=24
width=32
height=32
channels=3

[convolutional]
filters=16
size=3
\tactivation=leeky
"""
DN103_MSG = ("batch=64 is not a multiple of subdivisions=24: Darknet trains on 48 images per "
             "batch, not 64")
DN207_MSG = "unknown activation 'leeky'; Darknet falls back to 'relu'"
DN207_HINT = "did you mean 'leaky'?"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--dialect", "ab", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(CFG)
    return tmp_path


def test_text_shows_source_line_and_caret(cwd: Path) -> None:
    assert run("m.cfg") == (1, f"""\
m.cfg:3:14: DN103 warning: {DN103_MSG}
  |
3 | subdivisions=24
  |              ^^

m.cfg:11:13: DN207 error: {DN207_MSG}
  = hint: {DN207_HINT}
   |
11 |     activation=leeky
   |                ^^^^^

Found 2 problems (1 error, 1 warning) in 1 file.
""", "")


def test_text_without_line_shows_only_the_head() -> None:
    import io

    from dnlint.reporters import ReportContext, report_all

    file_level = Diagnostic(None, None, "DN514", Severity.ERROR, "short", "get it again", "w")
    no_column = Diagnostic(2, None, "DN026", Severity.INFO, "which fork?", None, "w")
    stream = io.StringIO()
    report_all("text", [FileResult("w", None, "", [file_level, no_column])],
               ReportContext(stream, False, quiet=True))
    assert stream.getvalue() == ("w: DN514 error: short\n  = hint: get it again\n\n"
                                 "w:2: DN026 info: which fork?\n")


def test_concise_is_one_line_each(cwd: Path) -> None:
    assert run("--format", "concise", "m.cfg") == (1, f"""\
m.cfg:3:14: DN103 warning: {DN103_MSG}
m.cfg:11:13: DN207 error: {DN207_MSG} (hint: {DN207_HINT})
Found 2 problems (1 error, 1 warning) in 1 file.
""", "")


def test_colour_keeps_the_same_text(cwd: Path) -> None:
    code, out, _ = run("--color", "always", "m.cfg")
    assert code == 1 and "\x1b[" in out
    import re

    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert plain == run("m.cfg")[1]


def test_json(cwd: Path) -> None:
    code, out, _ = run("--format", "json", "m.cfg")
    data = json.loads(out)
    assert code == 1
    assert data["summary"] == {"files": 1, "errors": 1, "warnings": 1, "infos": 0}
    assert data["files"][0]["diagnostics"] == [
        {"code": "DN103", "severity": "warning", "line": 3, "column": 14, "end_line": 3,
         "end_column": 16, "message": DN103_MSG},
        {"code": "DN207", "severity": "error", "line": 11, "column": 13, "end_line": 11,
         "end_column": 18, "message": DN207_MSG, "hint": DN207_HINT},
    ]


def test_json_version_2_has_no_layer_table_without_layers(cwd: Path) -> None:
    """Schema version 2: the layer table and the weights prediction come with --layers only."""
    (cwd / "ok.cfg").write_text("[net]\nwidth=8\nheight=8\nchannels=3\n\n[convolutional]\n"
                                "filters=4\nsize=1\nactivation=linear\n")
    data = json.loads(run("--format", "json", "ok.cfg")[1])
    assert data["version"] == 2
    assert sorted(data["files"][0]) == ["diagnostics", "dialect", "dialect_reason", "path"]
    entry = json.loads(run("--format", "json", "--layers", "ok.cfg")[1])["files"][0]
    # memory (docs/memory.md): 16 weights and biases, with their updates and EMA copies to
    # train (updates only on the GPU); output (and delta to train) of 256 floats; batch 1
    assert entry["layers"] == [{"index": 0, "type": "convolutional", "line": 6,
                                "input": [8, 8, 3], "output": [8, 8, 4], "outputs": 256,
                                "params": 16, "bflops": 1.536e-06,  # 2 * 12 * 8 * 8 / 1e9
                                "memory": {"cpu_train": 4 * (3 * 16 + 2 * 256),
                                           "cpu_infer": 4 * (16 + 256),
                                           "gpu_train": 4 * (2 * 16 + 2 * 256),
                                           "gpu_infer": 4 * (16 + 256)}}]
    assert entry["memory"]["cpu"]["workspace"] == 4 * 8 * 8 * 3
    assert entry["weights"]["expected_bytes"] == 20 + 4 * (4 + 3 * 4)  # header, biases, weights


# --- GitHub ----------------------------------------------------------------------------------

def test_github_lines_exactly(cwd: Path) -> None:
    assert run("--format", "github", "m.cfg") == (1, (
        f"::warning file=m.cfg,line=3,endLine=3,col=14,endColumn=16,title=DN103 "
        f"batch-not-divisible::"
        f"{DN103_MSG}\n"
        f"::error file=m.cfg,line=11,endLine=11,col=13,endColumn=18,title=DN207 "
        f"unknown-enum-value::"
        f"{DN207_MSG} (hint: {DN207_HINT})\n"
    ), "")


def test_github_escaping_and_file_level_and_notice() -> None:
    d = Diagnostic(None, None, "DN026", Severity.INFO, "50% sure\r\nreally", None,
                   "dir,a:b/x.cfg")
    assert github_line(d) == ("::notice file=dir%2Ca%3Ab/x.cfg,title=DN026 dialect-ambiguous::"
                              "50%25 sure%0D%0Areally")
    assert escape_data("a:b,c") == "a:b,c"
    assert escape_property("100%") == "100%25"


# --- SARIF -------------------------------------------------------------------------------------

LEVELS = {"none", "note", "warning", "error"}
# Properties each object may have (additionalProperties is false in the 2.1.0 schema), and the
# ones it requires.
ALLOWED = {
    "sarifLog": {"$schema", "version", "runs", "inlineExternalProperties", "properties"},
    "result": {"guid", "correlationGuid", "ruleId", "ruleIndex", "rule", "kind", "level",
               "message", "analysisTarget", "locations", "partialFingerprints", "fingerprints",
               "properties", "relatedLocations", "baselineState", "rank", "hostedViewerUri",
               "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse",
               "attachments", "codeFlows", "graphs", "graphTraversals", "stacks",
               "suppressions", "occurrenceCount"},
    "reportingDescriptor": {"id", "deprecatedIds", "guid", "deprecatedGuids", "name",
                            "deprecatedNames", "shortDescription", "fullDescription",
                            "messageStrings", "defaultConfiguration", "helpUri", "help",
                            "relationships", "properties"},
}


def check_sarif(log: dict[str, Any]) -> None:
    """The required structure of SARIF 2.1.0 (OASIS sarif-schema-2.1.0.json)."""
    assert log["version"] == "2.1.0"
    assert set(log) <= ALLOWED["sarifLog"]
    assert isinstance(log["runs"], list)
    for sarif_run in log["runs"]:
        driver = sarif_run["tool"]["driver"]
        assert isinstance(driver["name"], str)
        rules = driver.get("rules", [])
        for rule in rules:
            assert set(rule) <= ALLOWED["reportingDescriptor"] and isinstance(rule["id"], str)
            assert rule["defaultConfiguration"]["level"] in LEVELS
            for key in ("shortDescription", "fullDescription", "help"):
                assert isinstance(rule[key]["text"], str)
        assert sarif_run.get("columnKind", "unicodeCodePoints") in {"utf16CodeUnits",
                                                                    "unicodeCodePoints"}
        for result in sarif_run["results"]:
            assert set(result) <= ALLOWED["result"]
            assert isinstance(result["message"]["text"], str)
            assert result["level"] in LEVELS
            if "ruleIndex" in result:
                assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
            for location in result["locations"]:
                physical = location["physicalLocation"]
                assert isinstance(physical["artifactLocation"]["uri"], str)
                region = physical.get("region", {})
                assert region.get("startLine", 1) >= 1 and region.get("startColumn", 1) >= 1


def test_sarif(cwd: Path) -> None:
    code, out, _ = run("--format", "sarif", "m.cfg")
    log = json.loads(out)
    assert code == 1
    check_sarif(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [r.code for r in all_rules()]
    results = log["runs"][0]["results"]
    assert results == [
        {"ruleId": "DN103", "ruleIndex": results[0]["ruleIndex"], "level": "warning",
         "message": {"text": DN103_MSG},
         "locations": [{"physicalLocation": {
             "artifactLocation": {"uri": "m.cfg", "uriBaseId": "%SRCROOT%"},
             "region": {"startLine": 3, "startColumn": 14, "endColumn": 16}}}]},
        {"ruleId": "DN207", "ruleIndex": results[1]["ruleIndex"], "level": "error",
         "message": {"text": f"{DN207_MSG} (hint: {DN207_HINT})"},
         "locations": [{"physicalLocation": {
             "artifactLocation": {"uri": "m.cfg", "uriBaseId": "%SRCROOT%"},
             "region": {"startLine": 11, "startColumn": 13, "endColumn": 18}}}]},
    ]


def test_sarif_file_level_absolute_and_info() -> None:
    import io

    from dnlint.reporters import ReportContext, report_all

    d = Diagnostic(None, None, "DN026", Severity.INFO, "m", None, "/abs/x y.cfg")
    stream = io.StringIO()
    report_all("sarif", [FileResult("/abs/x y.cfg", None, "", [d])], ReportContext(stream, False))
    log = json.loads(stream.getvalue())
    check_sarif(log)
    result = log["runs"][0]["results"][0]
    assert result["level"] == "note"
    assert result["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "file:///abs/x%20y.cfg"}}}]


def test_sarif_clean_run(cwd: Path) -> None:
    (cwd / "ok.cfg").write_text(CFG.replace("24", "16").replace("leeky", "leaky"))
    code, out, _ = run("--format", "sarif", "ok.cfg")
    assert code == 0 and json.loads(out)["runs"][0]["results"] == []


def _installed_with(folder: Path, urls: list[str], monkeypatch: Any) -> None:
    """A dnlint distribution first on sys.path whose metadata lists these project URLs."""
    info = folder / "dnlint-9.9.dist-info"
    info.mkdir(parents=True)
    headers = "".join(f"Project-URL: {url}\n" for url in urls)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: dnlint\n{headers}\n"
                                   "Project-URL: Rules, https://not.a.header/\n")
    monkeypatch.syspath_prepend(str(folder))


def test_sarif_help_uri_points_at_each_rules_heading(cwd: Path, monkeypatch: Any) -> None:
    page = "https://example.org/dnlint/blob/main/docs/rules.md"
    _installed_with(cwd / "site", ["Source, https://example.org/dnlint", f"Rules, {page}"],
                    monkeypatch)
    log = json.loads(run("--format", "sarif", "m.cfg")[1])
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[1]["id"] == "DN001"
    assert rules[1]["helpUri"] == page + "#dn001-empty-file"
    headings = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in rules:  # the anchor is GitHub's slug of the rule's heading in docs/rules.md
        code, name = rule["helpUri"].split("#")[1].split("-", 1)
        assert f"\n### {code.upper()} {name}\n" in headings


def test_sarif_without_a_published_rules_page_has_no_help_uri(cwd: Path,
                                                                monkeypatch: Any) -> None:
    _installed_with(cwd / "site", ["Source, https://example.org/x"], monkeypatch)
    log = json.loads(run("--format", "sarif", "m.cfg")[1])
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert not any("helpUri" in rule for rule in rules)
    assert all(rule["help"]["text"] for rule in rules)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8)


@given(st.lists(st.lists(JSON_VALUES, max_size=4), max_size=4), st.integers(0, 3))
def test_streamed_array_writes_several_items_as_one_by_one(batches: list[list[Any]],
                                                           depth: int) -> None:
    """SARIF writes a file's results with one ``json.dumps``: the same text as one call an
    item, which is the text of the whole array dumped at once."""
    import io

    from dnlint.reporters.json_ import StreamedArray

    one, many = io.StringIO(), io.StringIO()
    single, batched = StreamedArray(one, depth), StreamedArray(many, depth)
    for batch in batches:
        batched.write_all(batch)
        for item in batch:
            single.write(item)
    assert many.getvalue() + batched.closing() == one.getvalue() + single.closing()
    flat = [item for batch in batches for item in batch]
    whole = json.dumps(flat, indent=2).replace("\n", "\n" + "  " * depth)
    assert "[" + many.getvalue() + batched.closing() == whole


ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                        lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                        | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                        max_leaves=12)


@given(ANY_JSON, st.integers(0, 3))
def test_indented_json_is_json_dumps_with_indent(value: Any, depth: int) -> None:
    """The reports' encoder gives json.dumps(indent=2)'s text at any depth: NaN and infinities,
    every character escaped as ensure_ascii escapes it, tuples as arrays."""
    from dnlint.reporters.json_ import indented_json

    newline = "\n" + "  " * depth
    assert indented_json(value, newline) == json.dumps(value, indent=2).replace("\n", newline)


def test_indented_json_leaves_what_it_does_not_know_to_json_dumps() -> None:
    """Keys that are not str are converted as json.dumps converts them; what json cannot
    encode is its TypeError, with its message."""
    from dnlint.reporters.json_ import indented_json

    value = {"a": [{1: None, 2.5: True, None: "x"}], "b": {False: []}}
    assert indented_json(value) == json.dumps(value, indent=2)
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        indented_json({"a": [object()]})


# --- JUnit, --output --------------------------------------------------------------------------

def test_junit(cwd: Path) -> None:
    (cwd / "ok.cfg").write_text(CFG.replace("24", "16").replace("leeky", "leaky"))
    code, out, _ = run("--format", "junit", "m.cfg", "ok.cfg")
    assert code == 1
    # the root has no totals: they are known only at the end, and the suites are streamed
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dnlint">\n')
    root = ET.fromstring(out.split("\n", 1)[1])
    suites = root.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures")) for s in suites] == [
        ("m.cfg", "2", "2"), ("ok.cfg", "1", "0")]
    case = suites[0].findall("testcase")[1]
    assert case.get("name") == "DN207 m.cfg:11:13" and case.get("line") == "11"
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "error"
    assert failure.text == f"m.cfg:11:13: DN207 error: {DN207_MSG}\nhint: {DN207_HINT}"
    assert suites[1].findall("testcase")[0].find("failure") is None


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github", "junit"])
def test_output_file(cwd: Path, fmt: str) -> None:
    code, out, _ = run("--format", fmt, "-o", "report.out", "m.cfg")
    assert (code, out) == (1, "")
    written = (cwd / "report.out").read_text()
    assert written == run("--format", fmt, "--no-color", "m.cfg")[1]
    assert "\x1b[" not in written


def test_text_and_concise_agree_on_every_rule_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first line of each text block is the concise line without its hint (the contract
    other tools parse), for every fixture in fixtures/rules."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    fixtures = sorted(str(p.relative_to(root)) for p in (root / "fixtures" / "rules").glob("*"))
    assert fixtures
    concise = run("--no-config", "-q", "--format", "concise", *fixtures)[1].splitlines()
    text = run("--no-config", "-q", "--format", "text", *fixtures)[1].splitlines()
    heads = [line for line in text if line.startswith("fixtures/")]
    assert len(heads) == len(concise)
    for head, line in zip(heads, concise, strict=True):
        assert line.startswith(head)
        assert line == head or line[len(head):].startswith(" (hint: ")


def _unescape(text: str) -> str:
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


@given(st.text())
def test_github_escaping_round_trips_and_leaves_no_separator(text: str) -> None:
    escaped = escape_property(text)
    assert _unescape(escaped) == text
    assert not set(escaped) & {",", ":", "\r", "\n"}
    assert "\n" not in escape_data(text) and _unescape(escape_data(text)) == text
