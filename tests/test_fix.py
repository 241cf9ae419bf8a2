"""``dnlint --fix``, ``--diff``, ``--fix-only``, ``--unsafe-fixes``: each fixable rule's bad
example fixed is its good example byte for byte; only the bytes that must change do; the run
loop writes atomically, never through a link, never a file it cannot read; round trips on the
stock cfgs (../shared/corpus); and a fuzz: a fix never raises, never adds an error, and a
second --fix changes nothing."""

from __future__ import annotations

import os
import re
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHARED, need_shared
from dnlint.cli import main
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.edits import Edit, Fix, Source, apply_fixes
from dnlint.fixes import FIXERS, _load
from dnlint.fixes.run import MAX_PASSES, fix_bytes
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult
from dnlint.rules import NET, Rule, all_rules
from test_rule_examples import example_bytes

FIXABLE = [r for r in all_rules() if r.fix]
HEAD = ("\n[convolutional]\nfilters=255\nactivation=linear\n\n[yolo]\nmask=0,1,2\n"
        "anchors=10,13, 16,30, 33,23\nnum=3\nclasses=20\n")


def fixed(data: bytes, dialect: Dialect | None = Dialect.AB, unsafe: bool = False) -> bytes:
    return fix_bytes(data, "t.cfg", dialect, unsafe).data


def errors(data: bytes, dialect: Dialect | None) -> int:
    result = lint_cfg_bytes(data, "t.cfg", dialect)
    return sum(d.severity is Severity.ERROR for d in result.diagnostics)


# --- the registry and the fixers -------------------------------------------------------------

def test_every_rule_with_a_fix_has_a_fixer_and_no_other() -> None:
    _load()
    assert set(FIXERS) == {r.code for r in FIXABLE}
    assert {r.code for r in FIXABLE if r.fix == "unsafe"} == {"DN009", "DN201", "DN404"}


def _fix_dialects(rule: Rule) -> list[Dialect | None]:
    """CRLF is fixed only where it hurts: the original Darknet."""
    return [Dialect.PJ] if rule.code == "DN013" else list(rule.dialects)


@pytest.mark.parametrize("rule", FIXABLE, ids=lambda r: r.code)
def test_bad_example_fixed_is_the_good_one(rule: Rule) -> None:
    for dialect in _fix_dialects(rule):
        after = fix_bytes(example_bytes(rule.bad), "t.cfg", dialect, unsafe=True)
        assert after.data == example_bytes(rule.good), (dialect, after.data)
        assert after.fixed >= 1
        assert fixed(after.data, dialect, unsafe=True) == after.data  # idempotent


@pytest.mark.parametrize("rule", [r for r in FIXABLE if r.fix == "unsafe"], ids=lambda r: r.code)
def test_an_unsafe_fix_needs_unsafe_fixes(rule: Rule) -> None:
    bad = example_bytes(rule.bad)
    result = fix_bytes(bad, "t.cfg", rule.dialects[0]).result
    assert any(d.code == rule.code and d.fix is not None and not d.fix.safe
               for d in result.diagnostics)


def test_crlf_is_left_alone_where_no_darknet_is_hurt() -> None:
    crlf = (NET + "\n[convolutional]\nfilters=16\n").replace("\n", "\r\n").encode()
    assert fixed(crlf, Dialect.AB) == crlf
    assert fixed(crlf, Dialect.PJ) == crlf.replace(b"\r\n", b"\n")


def test_only_the_bytes_that_must_change_do() -> None:
    """Comments, blank lines, spacing, tabs and CRLF elsewhere stay (AlexeyAB's reads CRLF)."""
    text = ("\ufeff# model\r\n[net]\r\nwidth=32\r\nheight = 32\r\n\tchannels=3\r\n\r\n"
            "[convolutional]\r\nfilters=16 ; P3\r\n\r\n\r\n[route]\r\nlayers = -1, ,-2 \r\n")
    want = ("# model\r\n[net]\r\nwidth=32\r\nheight = 32\r\n\tchannels=3\r\n\r\n"
            "[convolutional]\r\n; P3\r\nfilters=16\r\n\r\n\r\n[route]\r\nlayers = -1,-2 \r\n")
    assert fixed(text.encode(), Dialect.AB) == want.encode()


def test_inline_comment_keeps_the_indent_and_the_value() -> None:
    data = (NET + "\n[convolutional]\n  filters=16\t#  sixteen  \n").encode()
    assert fixed(data) == (NET + "\n[convolutional]\n  #  sixteen\n  filters=16\n").encode()


def test_glued_numbers_are_never_fixed() -> None:
    """'400 800' may be 400800 or 400,800: DN028, a choice."""
    data = (NET.replace("width", "max_batches=1000\npolicy=steps\nsteps=400 800\nscales=.1,.1\n"
                        "width") + "\n[convolutional]\nfilters=16\n").encode()
    assert fixed(data) == data


def test_filters_are_not_fixed_when_the_heads_disagree_on_classes() -> None:
    rule = next(r for r in all_rules() if r.code == "DN408")
    bad = example_bytes(rule.bad)
    assert fixed(bad) == bad


def test_filters_before_every_head_for_region_and_gaussian() -> None:
    region = (NET + "\n[convolutional]\nfilters=125\nactivation=linear\n\n[region]\n"
              "anchors=1,1, 2,2, 3,3, 4,4, 5,5\nclasses=3\ncoords=4\nnum=5\n")
    assert fixed(region.encode()) == region.replace("filters=125", "filters=40").encode()
    gaussian = HEAD.replace("[yolo]", "[Gaussian_yolo]")
    before = (NET + gaussian).encode()
    assert fixed(before) == (NET + gaussian.replace("filters=255", "filters=87")).encode()


def test_a_rename_that_would_duplicate_a_key_is_not_offered() -> None:
    data = (NET + "\n[convolutional]\nfilters=16\nfilter=8\n").encode()
    assert fixed(data, unsafe=True) == data


def test_num_is_not_raised_without_anchors_for_it() -> None:
    """Which anchors to add is a choice: the mask stays out of range."""
    data = (NET + HEAD.replace("mask=0,1,2", "mask=3,4,5")).encode()
    assert fixed(data, unsafe=True) == data


def test_overlapping_fixes_wait_for_the_next_pass() -> None:
    first = Fix((Edit(0, 2, b"x"),))
    second = Fix((Edit(1, 3, b"y"),))
    insert = Fix((Edit(3, 3, b"!"),))
    assert apply_fixes(b"abcd", [first, second, insert]) == (b"xc!d", 2)
    assert apply_fixes(b"abcd", [Fix((Edit(1, 1, b"1"),)), Fix((Edit(1, 1, b"2"),))]) == (
        b"a1bcd", 1)


def _apply_pairwise(data: bytes, fixes: list[Fix]) -> tuple[bytes, int]:
    """What apply_fixes must give: each fix compared with every edit taken before it."""
    taken: list[Edit] = []
    count = 0
    for fix in fixes:
        edits = sorted(fix.edits)
        pairs = [sorted([e, t]) for e in edits for t in taken] + [edits]
        if any(b.start < a.end or b.start == a.start
               for pair in pairs for a, b in pairwise(pair)):
            continue
        taken += edits
        count += 1
    out, at = b"", 0
    for edit in sorted(taken):
        out, at = out + data[at:edit.start] + edit.text, edit.end
    return out + data[at:], count


EDITS = st.builds(lambda start, length, text: Edit(start, start + length, text),
                  st.integers(0, 12), st.integers(0, 3), st.sampled_from([b"", b"x", b"yz"]))


@given(st.lists(st.lists(EDITS, min_size=1, max_size=3).map(lambda e: Fix(tuple(e))),
                max_size=12))
def test_fixes_are_taken_as_when_each_is_compared_with_all_before_it(fixes: list[Fix]) -> None:
    """The sorted neighbours of an edit stand for every edit taken before it."""
    assert apply_fixes(b"0123456789abcdef", fixes) == _apply_pairwise(b"0123456789abcdef", fixes)


def test_source_lines_skip_the_bom_and_the_cr() -> None:
    source = Source(b"\xef\xbb\xbf[net]\r\nw=1\nx\xff\n")
    assert (source.span(1), source.span(2), source.text(3), source.span(4)) == (
        (3, 8), (10, 13), None, (17, 17))
    assert source.eol(1) == b"\r\n" and source.eol(2) == b"\n"


def test_dependent_fixes_land_over_several_passes() -> None:
    """A trailing mask comma hides the head-size error; once it is gone, filters is fixed."""
    data = (NET + HEAD.replace("mask=0,1,2", "mask=0,1,2,")).encode()
    after = fix_bytes(data, "t.cfg", Dialect.AB)
    assert after.data == (NET + HEAD.replace("filters=255", "filters=75")).encode()
    assert after.fixed == 2 and MAX_PASSES >= 2


# --- the command line ------------------------------------------------------------------------

BROKEN = "\ufeff" + NET + HEAD.replace("activation=linear", "activation=linear # head")
REPAIRED = NET + HEAD.replace("filters=255\nactivation=linear",
                              "filters=75\n# head\nactivation=linear")


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--no-config", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(BROKEN, encoding="utf-8")
    return tmp_path


def test_report_marks_fixable_findings_and_counts_them(cwd: Path) -> None:
    code, out, _ = cli("--format", "concise", "m.cfg")
    assert code == 1
    assert out.splitlines()[0].startswith("m.cfg:1:1: DN014 [*] error: ")
    assert out.endswith("Found 3 problems (3 errors) in 1 file.\n"
                        "[*] 3 fixable with the --fix option.\n")


def test_fix_writes_the_file_and_reports_what_is_left(cwd: Path) -> None:
    os.chmod(cwd / "m.cfg", 0o640)
    assert cli("m.cfg", "--fix") == (0, "All checks passed (1 file).\nFixed 3 problems.\n", "")
    assert (cwd / "m.cfg").read_bytes() == REPAIRED.encode()
    assert os.stat(cwd / "m.cfg").st_mode & 0o777 == 0o640
    assert [p.name for p in cwd.iterdir()] == ["m.cfg"]  # no temporary file left
    assert cli("m.cfg", "--fix") == (0, "All checks passed (1 file).\n", "")


def test_diff_writes_nothing_and_exits_1(cwd: Path) -> None:
    code, out, err = cli("--diff", "m.cfg")
    assert (code, err) == (1, "Would fix 3 problems.\n")
    assert out == ("--- a/m.cfg\n+++ b/m.cfg\n@@ -1,11 +1,12 @@\n-\ufeff[net]\n+[net]\n"
                   " width=32\n height=32\n channels=3\n \n [convolutional]\n-filters=255\n"
                   "-activation=linear # head\n+filters=75\n+# head\n+activation=linear\n"
                   " \n [yolo]\n mask=0,1,2\n")
    assert (cwd / "m.cfg").read_text(encoding="utf-8") == BROKEN
    (cwd / "ok.cfg").write_text(REPAIRED)
    assert cli("--diff", "ok.cfg") == (0, "", "No problems to fix.\n")


def test_exit_zero_governs_diff_too(cwd: Path) -> None:
    code, out, err = cli("--diff", "--exit-zero", "m.cfg")
    assert (code, err) == (0, "Would fix 3 problems.\n")
    assert out.startswith("--- a/m.cfg\n+++ b/m.cfg\n")
    assert cli("--diff", "--exit-zero", "m.cfg", "missing.cfg")[0] == 2  # not a finding


def test_fix_only_does_not_fail_on_what_is_left(cwd: Path) -> None:
    (cwd / "m.cfg").write_text(BROKEN + "\n[maxpool]\nsize=2\nstrid=2\n", encoding="utf-8")
    assert cli("--fix-only", "m.cfg") == (0, "Fixed 3 problems.\n", "")
    assert cli("m.cfg")[0] == 1  # DN201 is left: its fix is unsafe
    assert cli("--fix-only", "--unsafe-fixes", "m.cfg") == (0, "Fixed 1 problem.\n", "")
    assert (cwd / "m.cfg").read_text() == REPAIRED + "\n[maxpool]\nsize=2\nstride=2\n"


def test_fix_respects_ignore_and_suppressions(cwd: Path) -> None:
    """Only what the run reports is fixed (a syntax error such as DN014 cannot be ignored)."""
    (cwd / "n.cfg").write_text(NET + HEAD + "[maxpool]\nsize=2 # x\n")
    assert cli("--fix-only", "--ignore", "DN4,DN012", "n.cfg")[1] == "No problems fixed.\n"
    assert cli("--fix-only", "--ignore", "DN401", "m.cfg")[1] == "Fixed 2 problems.\n"
    assert (cwd / "m.cfg").read_text() == REPAIRED.replace("filters=75", "filters=255")
    (cwd / "s.cfg").write_text("# dnlint: disable-file=DN401\n" + BROKEN[1:])
    assert cli("--fix-only", "s.cfg")[1] == "Fixed 1 problem.\n"
    assert (cwd / "s.cfg").read_text() == "# dnlint: disable-file=DN401\n" + REPAIRED.replace(
        "filters=75", "filters=255")


def test_fix_never_writes_through_a_symbolic_link(cwd: Path) -> None:
    (cwd / "link.cfg").symlink_to("m.cfg")
    code, _, err = cli("--fix", "-q", "--format", "concise", "link.cfg")
    assert code == 2
    assert err == ("dnlint: link.cfg: is a symbolic link: not fixed (name the file it points to "
                   "instead)\n")
    assert (cwd / "m.cfg").read_text(encoding="utf-8") == BROKEN
    assert (cwd / "link.cfg").is_symlink()


@pytest.mark.parametrize("content", [
    b"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n",
    b"<!DOCTYPE html>\n<html>\n",
    "[net]\nwidth=32\n".encode("utf-16"),
    bytes(range(256)) * 4,
])
def test_a_file_with_a_fatal_reading_problem_is_never_written(cwd: Path, content: bytes) -> None:
    (cwd / "x.cfg").write_bytes(content)
    before = os.stat(cwd / "x.cfg")
    assert cli("--fix-only", "x.cfg") == (0, "No problems fixed.\n", "")
    after = os.stat(cwd / "x.cfg")
    assert (cwd / "x.cfg").read_bytes() == content
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_list_rules_explain_and_docs_show_the_fix() -> None:
    from dnlint.docgen.rules_page import render

    assert "Fix: safe (applied by --fix)." in cli("--explain", "DN401")[1]
    assert "| [DN201](#dn201-unknown-option) | unknown-option | error | unsafe |" in render()


# --- round trips on the stock cfgs -----------------------------------------------------------

def stock(fork: str) -> list[Path]:
    return sorted((SHARED / "corpus" / fork / "cfg").glob("*.cfg"))


def test_stock_cfgs_with_nothing_to_fix_stay_byte_identical() -> None:
    need_shared()
    unchanged = 0
    for fork, dialect in (("alexeyab", None), ("pjreddie", Dialect.PJ)):
        for path in stock(fork):
            data = path.read_bytes()
            outcome = fix_bytes(data, str(path), dialect)
            fixable = [d for d in outcome.first.diagnostics if d.fix and d.fix.safe]
            assert outcome.changed == bool(fixable), path
            unchanged += not outcome.changed
            assert fixed(outcome.data, dialect) == outcome.data, path  # idempotent
    assert unchanged >= 120  # 3 of the 136 stock cfgs have inline comments


_FILTERS_BEFORE_HEAD = re.compile(r"filters=(\d+)(?=\n(?:[a-z_]+=[^\n]*\n|#[^\n]*\n|\n)*"
                                  r"\[(?:yolo|region|Gaussian_yolo)\])")


def _clean_stock(fork: str, dialect: Dialect | None) -> list[tuple[Path, bytes]]:
    """Stock cfgs with a [yolo], [region] or [Gaussian_yolo] head that need no fix."""
    found = []
    for path in stock(fork):
        data = path.read_bytes()
        if (_FILTERS_BEFORE_HEAD.search(data.decode("utf-8", "replace"))
                and fixed(data, dialect) == data):
            found.append((path, data))
    names = {path.name for path, _ in found}
    assert {"yolov2.cfg", "yolov3.cfg"} <= names  # [region] and [yolo] heads
    return found


def _error_codes(result: FileResult) -> list[str]:
    return [d.code for d in result.diagnostics if d.severity is Severity.ERROR]


def _break(text: str) -> str:
    """What users do: a wrong filters= before every head, a BOM, a trailing list comma."""
    text = _FILTERS_BEFORE_HEAD.sub(lambda m: f"filters={int(m.group(1)) + 7}", text)
    text = re.sub(r"(?m)^(mask=[0-9,]+)$", r"\1,", text, count=1)
    return "\ufeff" + text


def test_broken_stock_cfgs_fix_back_to_the_stock_bytes() -> None:
    need_shared()
    cases = _clean_stock("alexeyab", None)
    assert len(cases) >= 40 and "Gaussian_yolov3_BDD.cfg" in {p.name for p, _ in cases}
    for path, data in cases:
        broken = _break(data.decode()).encode()
        assert errors(broken, None) > errors(data, None), path
        assert fixed(broken, None) == data, path


def test_crlf_stock_cfgs_fix_back_to_the_stock_bytes_for_pjreddie() -> None:
    need_shared()
    cases = _clean_stock("pjreddie", Dialect.PJ)
    assert len(cases) >= 5
    for path, data in cases:
        broken = _break(data.decode()).replace("\n", "\r\n").encode()
        assert fixed(broken, Dialect.PJ) == data, path


def _values(data: bytes) -> list[dict[str, object]]:
    """What Darknet reads: the typed values of [net] and of every layer."""
    network = lint_cfg_bytes(data, "t.cfg", None).network
    assert network is not None
    return [network.net_values.data, *(layer.values.data for layer in network.layers
                                       if layer.values is not None)]


def test_comments_after_values_are_moved_and_the_values_read_the_same() -> None:
    need_shared()
    for path in stock("alexeyab")[::4]:
        data = path.read_bytes()
        if fixed(data) != data:
            continue
        text = data.decode("utf-8", "surrogateescape")
        commented = re.sub(r"(?m)^([a-z_]+=[^#;\n]*?)[ \t]*$", r"\1 # was \1", text)
        broken = commented.encode("utf-8", "surrogateescape")
        repaired = fixed(broken, None)
        assert _values(repaired) == _values(data), path
        before = lint_cfg_bytes(data, "t.cfg", None).diagnostics
        after = lint_cfg_bytes(repaired, "t.cfg", None).diagnostics
        assert [d.code for d in after] == [d.code for d in before], path


def test_new_classes_in_every_head_give_a_cfg_the_weights_pass_accepts() -> None:
    """classes=80 -> 3 in every head of yolov3-tiny: --fix sets both convolutions before the
    heads to 3*(3+5)=24 filters; no error, and the weights file shrinks by exactly the
    231 filters of each, with their biases: 231*(512+1) + 231*(256+1) floats."""
    need_shared()
    path = SHARED / "corpus" / "alexeyab" / "cfg" / "yolov3-tiny.cfg"
    data = path.read_bytes()
    changed = data.replace(b"classes=80", b"classes=3")
    repaired = fix_bytes(changed, "t.cfg", Dialect.AB)
    assert repaired.data == data.replace(b"classes=80", b"classes=3").replace(
        b"filters=255", b"filters=24")
    assert [d.code for d in repaired.result.diagnostics
            if d.severity is Severity.ERROR] == []
    stock_report = lint_cfg_bytes(data, "t.cfg", Dialect.AB).weights
    report = repaired.result.weights
    assert stock_report is not None and report is not None
    assert stock_report.expected_bytes - report.expected_bytes == 231 * (513 + 257) * 4


def test_new_classes_in_every_stock_head_fix_without_error() -> None:
    need_shared()
    for path, data in _clean_stock("alexeyab", None):
        changed = re.sub(rb"(?m)^classes=\d+", b"classes=3", data)
        assert errors(changed, None) > errors(data, None), path
        repaired = fix_bytes(changed, str(path), None)
        stock_errors = _error_codes(lint_cfg_bytes(data, str(path), None))
        assert _error_codes(repaired.result) == stock_errors, path
        assert repaired.result.weights is not None


# --- the fuzz --------------------------------------------------------------------------------

PIECES = st.sampled_from([
    "[net]\n", "width=32\nheight=32\nchannels=3\n", "[convolutional]\n", "filters=16\n",
    "filters=255\n", "filters=255 # x\n", "activation=lea ky\n", "activation=leaky ; y\n",
    "[yolo]\n", "mask=0,1,2\n", "mask=0,1,2,\n", "mask=3,4,5\n", "mask=0,,1\n",
    "anchors=10,13, 16,30, 33,23\n", "anchors=1,2,3,4,5,6,7,8\n", "num=3\n", "num=1\n",
    "classes=20\n", "classes=2\n", "[region]\n", "coords=4\n", "\n", "# note\n",
    "[route]\n", "layers=-1,\n", "batch=1\n", "batch=2\n", "filter=3\n", "activaton=relu\n",
    "[maxpool] # down\n", "size=2\n", "stride=2\n", "\r\n", "x\r\n", " \t size = 3 \n",
])


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(PIECES, max_size=30), st.booleans(), st.booleans(),
       st.sampled_from([Dialect.PJ, Dialect.AB, Dialect.HANK, None]))
def test_fix_never_raises_never_adds_errors_and_is_idempotent(
        pieces: list[str], bom: bool, unsafe: bool, dialect: Dialect | None) -> None:
    data = ("\ufeff" if bom else "").encode() + "".join(pieces).encode()
    once = fix_bytes(data, "t.cfg", dialect, unsafe)
    assert errors(once.data, dialect) <= errors(data, dialect)
    assert fixed(once.data, dialect, unsafe) == once.data


def test_a_cfg_linted_only_for_its_weights_file_is_not_fixed(cwd: Path) -> None:
    """``dnlint --fix m.weights`` checks the weights against m.cfg beside it: m.cfg was not
    asked for, so it is not rewritten."""
    (cwd / "m.weights").write_bytes(bytes(20))
    code, _, _ = cli("--fix", "m.weights")
    assert code == 1
    assert (cwd / "m.cfg").read_text(encoding="utf-8") == BROKEN


def test_json_gives_each_fix_as_byte_edits(cwd: Path) -> None:
    import json

    code, out, _ = cli("--format", "json", "m.cfg")
    assert code == 1
    found = {d["code"]: d.get("fix") for d in json.loads(out)["files"][0]["diagnostics"]}
    start = len(("\ufeff" + NET + "\n[convolutional]\n").encode()) + len("filters=")
    assert found == {
        "DN014": {"applicability": "safe", "edits": [{"start": 0, "end": 3, "content": ""}]},
        "DN011": {"applicability": "safe", "edits": [
            {"start": start + 4, "end": start + 28, "content": "# head\nactivation=linear"}]},
        "DN401": {"applicability": "safe", "edits": [
            {"start": start, "end": start + 3, "content": "75"}]},
    }


def test_diff_splits_lines_at_lf_only(cwd: Path) -> None:
    (cwd / "f.cfg").write_bytes(b"[net]\nwidth=32\nheight=32\x0c\r\nchannels=3\n\n"
                                b"[convolutional]\nfilters=16\n[route]\nlayers=-1,\n")
    code, out, _ = cli("--diff", "f.cfg")
    assert code == 1
    assert out == ("--- a/f.cfg\n+++ b/f.cfg\n@@ -6,4 +6,4 @@\n [convolutional]\n filters=16\n"
                   " [route]\n-layers=-1,\n+layers=-1\n")


def test_a_fix_that_would_add_errors_is_dropped_and_the_others_kept() -> None:
    """filters=75 would fix the head but break the two depthwise convolutions that read the
    same layer through routes (DN309 twice): that fix is left out, the BOM and the comment
    are still fixed, and a second run changes nothing."""
    depthwise = "\n[route]\nlayers={}\n\n[convolutional]\nfilters=255\ngroups=255\nsize=1\n"
    text = ("\ufeff" + NET + "\n[convolutional]\nfilters=255\nsize=1\nactivation=linear\n"
            + HEAD.split("\n", 4)[4].replace("classes=20", "classes=20 # was 80")
            + depthwise.format(-2) + depthwise.format(-4))
    outcome = fix_bytes(text.encode(), "t.cfg", Dialect.AB)
    want = text[1:].replace("classes=20 # was 80", "# was 80\nclasses=20")
    assert outcome.data == want.encode()
    assert [(d.code, d.line) for d in outcome.result.diagnostics] == [("DN401", 16)]
    assert errors(want.replace("filters=255\nsize=1\nactivation", "filters=75\nsize=1\n"
                               "activation", 1).encode(), Dialect.AB) == 2  # DN309 twice
    assert fixed(outcome.data) == outcome.data


def test_line_starts_packed_or_not_give_the_same_spans() -> None:
    """A file over 64 KiB keeps its line starts packed (an array), a smaller one in a list;
    every line's span is the same either way."""
    from dnlint.edits import Source

    line = b"filters=16\r\n"
    small = b"\xef\xbb\xbf" + line * 100 + b"last"
    large = b"\xef\xbb\xbf" + line * 6000 + b"last"
    for data, kind in ((small, list), (large, "array")):
        source = Source(data)
        assert type(source.starts).__name__ == getattr(kind, "__name__", kind)
        count = data.count(b"\n") + 1
        assert source.span(1) == (3, 13)
        assert source.span(2) == (15, 25)
        assert source.span(count) == (len(data) - 4, len(data))
        assert source.span(count + 1) is None
