"""Suppression directives: own-line comments, their scopes, and the DN9xx reports on them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.settings.policy import Policy, apply_policy, selection_for
from dnlint.settings.selectors import is_syntax_error

NET = """\
[net]
batch=64
subdivisions=24
width=32
height=32
channels=3
"""
CONV = """
[convolutional]
filters=16
size=3
activation=leaky
"""


def found(text: str, policy: Policy | None = None) -> list[tuple[int | None, str]]:
    result = lint_cfg_bytes(textwrap.dedent(text).encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", policy or Policy(), None))
    return [(d.line, d.code) for d in result.diagnostics]


def test_without_directives_dn103_is_reported() -> None:
    assert found(NET + CONV) == [(3, "DN103")]


def test_disable_next_line_suppresses_and_counts_as_used() -> None:
    cfg = NET.replace("subdivisions", "# dnlint: disable-next-line=DN103\nsubdivisions") + CONV
    assert found(cfg) == []


def test_semicolon_comment_and_blank_lines_before_the_target() -> None:
    cfg = NET.replace("subdivisions", "; dnlint: disable-next-line=DN103\n\n# why\nsubdivisions")
    assert found(cfg + CONV) == []


def test_disable_next_line_with_reason_and_prefix() -> None:
    cfg = NET.replace("subdivisions",
                      "# dnlint: disable-next-line=DN1 -- we train on 48\nsubdivisions") + CONV
    assert found(cfg) == []


def test_disable_next_line_on_the_wrong_line_is_unused() -> None:
    cfg = NET.replace("batch", "# dnlint: disable-next-line=DN103\nbatch") + CONV
    # the directive now sits on line 2 and covers line 3 (batch); DN103 moved to line 4
    assert found(cfg) == [(2, "DN901"), (4, "DN103")]


def test_disable_enable_range() -> None:
    cfg = NET.replace("batch", "# dnlint: disable=DN103\nbatch").replace(
        "width", "# dnlint: enable=DN103\nwidth") + CONV
    assert found(cfg) == []


def test_range_closed_before_the_problem_is_unused() -> None:
    cfg = NET.replace("batch", "# dnlint: disable=DN103\n# dnlint: enable=DN103\nbatch") + CONV
    assert found(cfg) == [(2, "DN901"), (5, "DN103")]


def test_enable_without_disable_is_malformed() -> None:
    cfg = NET + "# dnlint: enable=DN103\n" + CONV
    assert found(cfg) == [(3, "DN103"), (7, "DN903")]


def test_disable_file_before_first_section() -> None:
    assert found("# dnlint: disable-file=DN103\n" + NET + CONV) == []


def test_disable_file_after_first_section_is_ignored() -> None:
    cfg = NET + "# dnlint: disable-file=DN103\n" + CONV
    assert found(cfg) == [(3, "DN103"), (7, "DN903")]


def test_unknown_code_is_reported_and_known_ones_still_apply() -> None:
    cfg = NET.replace("subdivisions", "# dnlint: disable-next-line=DN999,DN103\nsubdivisions")
    assert found(cfg + CONV) == [(3, "DN902")]


def test_unknown_action_and_missing_codes() -> None:
    cfg = "# dnlint: frobnicate\n# dnlint: disable-next-line\n" + NET + CONV
    assert found(cfg) == [(1, "DN903"), (2, "DN903"), (5, "DN103")]


def test_trailing_directive_is_not_applied() -> None:
    cfg = NET.replace("subdivisions=24", "subdivisions=24 # dnlint: disable-next-line=DN103")
    codes = found(cfg + CONV)
    assert (3, "DN103") in codes and (3, "DN904") in codes


def test_syntax_errors_cannot_be_suppressed() -> None:
    cfg = NET.replace("batch=64", "# dnlint: disable-next-line=DN006\nbatch") + CONV
    assert found(cfg) == [(2, "DN903"), (3, "DN006"), (4, "DN102")]


def test_syntax_error_survives_ignore() -> None:
    cfg = NET.replace("batch=64", "batch") + CONV
    assert (2, "DN006") in found(cfg, Policy(ignore=("DN0",)))


def test_disable_directives_flag() -> None:
    cfg = NET.replace("subdivisions", "# dnlint: disable-next-line=DN103\nsubdivisions") + CONV
    assert found(cfg, Policy(directives=False)) == [(4, "DN103")]


def test_unused_suppression_column_points_at_the_code() -> None:
    text = NET + CONV.replace("filters", "# dnlint: disable-next-line=DN103,DN2\nfilters")
    result = lint_cfg_bytes(text.encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", Policy(), None))
    unused = [(d.line, d.column, d.message) for d in result.diagnostics if d.code == "DN901"]
    assert unused == [(9, 29, "suppression of DN103 suppresses nothing"),
                      (9, 35, "suppression of DN2 suppresses nothing")]


def _fixtures() -> list[Path]:
    root = Path(__file__).resolve().parents[1] / "fixtures"
    return sorted(p for p in root.rglob("*.cfg") if p.is_file())


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: p.name)
def test_disable_file_silences_everything_but_syntax_errors(path: Path) -> None:
    """On every fixture: a disable-file of all reported codes leaves exactly the syntax errors,
    and no DN9xx report about the directive itself."""
    data = path.read_bytes()
    if data.startswith(b"# expect:"):
        data = data.partition(b"\n")[2]  # the header of a rule fixture is not part of its case
    if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\0" in data:
        pytest.skip("the first line cannot take a comment without changing the file")
    before = lint_cfg_bytes(b"# placeholder\n" + data, "t.cfg")
    syntax = [(d.line, d.code) for d in before.diagnostics
              if is_syntax_error(d.code, d.severity)]
    codes = sorted({d.code for d in before.diagnostics} - {c for _, c in syntax})
    if not codes:
        pytest.skip("only syntax errors")
    directive = f"# dnlint: disable-file={','.join(codes)}\n".encode()
    after = lint_cfg_bytes(directive + data, "t.cfg")
    apply_policy(after, selection_for("t.cfg", Policy(), None))
    remaining = [(d.line, d.code) for d in after.diagnostics]
    assert remaining == syntax


# --- hostile input: repeats and linear cost ------------------------------------------------------

CLEAN_NET = NET.replace("subdivisions=24", "subdivisions=16")

def test_a_repeated_code_is_reported_once() -> None:
    codes = ",".join(["DN103"] * 500 + ["DN2", "DN2"])
    cfg = NET.replace("subdivisions", f"# dnlint: disable-next-line={codes}\nsubdivisions")
    result = lint_cfg_bytes((cfg + CONV).encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", Policy(), None))
    assert [(d.line, d.column, d.code, d.message) for d in result.diagnostics] == [
        (3, 35, "DN901", "DN103 is repeated 499 more times in this directive; "
                         "a repeat suppresses nothing"),
        (3, 3029, "DN901", "suppression of DN2 suppresses nothing"),
        (3, 3033, "DN901", "DN2 is repeated once more in this directive; "
                           "a repeat suppresses nothing"),
    ]


def test_enable_of_a_prefix_closes_every_range_under_it() -> None:
    cfg = NET.replace("batch", "# dnlint: disable=DN103\n# dnlint: disable=DN1\nbatch").replace(
        "width", "# dnlint: enable=DN1\nwidth") + CONV
    assert found(cfg) == []
    assert found(cfg + "# dnlint: enable=DN103\n") == [(15, "DN903")]


def _findings(count: int, directive: str) -> str:
    """``count`` unknown options (DN201 each) in one layer, each below ``directive``."""
    lines = "".join(f"{directive}\nbogus{i}=1\n" for i in range(count))
    return CLEAN_NET + CONV + lines


def _operations(text: str) -> int:
    """Python and C function calls made by linting and suppressing ``text``: a count that
    grows with the work done, whatever the machine's speed."""
    import sys

    result = lint_cfg_bytes(text.encode(), "t.cfg", Dialect.AB)
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        apply_policy(result, selection_for("t.cfg", Policy(), None))
    finally:
        sys.setprofile(None)
    assert [d.code for d in result.diagnostics] == [], result.diagnostics[:3]
    return calls


@pytest.mark.parametrize("directive", ["# dnlint: disable-next-line=DN201",
                                       "# dnlint: disable=DN2", "# dnlint: disable-file=DN2"])
def test_suppressing_n_findings_costs_linear_work(directive: str) -> None:
    if directive.endswith("disable-file=DN2"):
        small = directive + "\n" + _findings(400, "")
        large = directive + "\n" + _findings(800, "")
        assert _operations(large) <= 2.3 * _operations(small)
        return
    # every diagnostic tested against every scope made this ratio 4 (28 s for 8000 findings)
    assert _operations(_findings(800, directive)) <= 2.3 * _operations(_findings(400, directive))


def test_consecutive_directives_before_one_option_cost_linear_work() -> None:
    def cfg(count: int) -> str:
        return CLEAN_NET + CONV + "# dnlint: disable-next-line=DN201\n" * count + "bogus=1\n"

    # each directive rescanned the lines after it for its target: ratio 4 (22 s at 16 000)
    assert _operations(cfg(1600)) <= 2.3 * _operations(cfg(800))


def test_a_one_letter_prefix_is_a_selector_too() -> None:
    cfg = NET.replace("subdivisions", "# dnlint: disable-next-line=d\nsubdivisions") + CONV
    assert found(cfg) == []


def spans(text: str) -> list[tuple[str, int, int | None, int | None]]:
    result = lint_cfg_bytes(textwrap.dedent(text).encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", Policy(), None))
    return [(d.code, d.column or 0, d.end_line, d.end_column)
            for d in result.diagnostics if d.code.startswith("DN90")]


def test_each_code_of_a_directive_is_reported_at_its_own_span() -> None:
    line = "# dnlint: disable=x1, DN103,dn4 ,  zz9,x1,DN001\n"
    #       123456789012345678901234567890123456789012345
    assert spans(line + NET + CONV) == [
        ("DN902", 19, 1, 21),  # x1
        ("DN901", 29, 1, 32),  # dn4 suppresses nothing (DN103 does: it is used)
        ("DN902", 36, 1, 39),  # zz9
        ("DN901", 40, 1, 42),  # the repeat of x1, not its first mention
        ("DN903", 43, 1, 48),  # DN001: a syntax error cannot be suppressed
    ]


def test_many_unknown_codes_on_one_line_list_a_hundred_at_their_spans_then_count() -> None:
    codes = [f"x{i}" for i in range(3000)]
    line = "#dnlint:disable=" + ",".join(codes) + "\n"
    found = spans(line + NET + CONV)
    assert len(found) == 101
    column = len("#dnlint:disable=") + 1
    for (code, start, end_line, end), name in zip(found, codes[:100], strict=False):
        assert (code, start, end_line, end) == ("DN902", column, 1, column + len(name))
        column += len(name) + 1
    # the rest in one finding, from the first it counts to the end of the list
    assert found[100] == ("DN902", column, 1, len(line))
    result = lint_cfg_bytes(textwrap.dedent(line + NET + CONV).encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", Policy(), None))
    assert [d.message for d in result.diagnostics if d.code == "DN902"][-1] == (
        "2,900 more DN902 findings in this file (lines 1 to 1) are not listed one by one: "
        "dnlint lists the first 100 of a rule per file")


def test_unused_suppressions_fold_past_a_hundred() -> None:
    directives = "".join("# dnlint: disable-next-line=DN201\n" for _ in range(150))
    found = spans(NET + CONV + directives)
    assert [code for code, *_ in found] == ["DN901"] * 101
    assert found[0] == ("DN901", 29, 12, 34)
    assert found[100][:3] == ("DN901", 29, 112)


@pytest.mark.parametrize(("selector", "known"), [
    ("DN201", True), ("DN2", True), ("DN", True), ("D", True), ("DN2019", False),
    ("DN999", False), ("X1", False), ("dn201", False),  # callers normalize first
])
def test_is_known_answers_for_codes_and_their_prefixes(selector: str, known: bool) -> None:
    from dnlint.settings.directives import is_known

    assert is_known(selector) is known
