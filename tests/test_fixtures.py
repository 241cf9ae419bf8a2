"""Every rule fixture under fixtures/rules gives exactly the diagnostics listed here."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, codes
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

AB, PJ, HANK, AUTO = Dialect.AB, Dialect.PJ, Dialect.HANK, None

EXPECTED: dict[str, tuple[Dialect | None, list[tuple[str, int | None]]]] = {
    "DN001-empty-file.cfg": (AB, [("DN001", 1)]),
    "DN002-option-before-section.cfg": (AB, [("DN002", 2)]),
    "DN003-no-sections.cfg": (AB, [("DN003", 1), ("DN002", 2)]),
    "DN004-first-section-not-net.cfg": (AB, [("DN004", 1)]),
    "DN005-net-without-layers.cfg": (AB, [("DN005", 1)]),
    "DN006-missing-equals.cfg": (AB, [("DN006", 9), ("DN009", 10)]),
    "DN007-empty-value.cfg": (AB, [("DN007", 9)]),
    "DN008-empty-key.cfg": (AB, [("DN008", 9)]),
    "DN009-duplicate-key.cfg": (AB, [("DN009", 9)]),
    "DN010-whitespace-in-token.cfg": (AB, [("DN010", 9)]),
    "DN011-inline-comment-changes-value.cfg": (AB, [("DN011", 9)]),
    "DN012-inline-comment.cfg": (AB, [("DN012", 9)]),
    "DN013-crlf-line-endings.cfg": (AB, [("DN013", 1)]),
    "DN014-utf8-bom.cfg": (AB, [("DN014", 1)]),
    "DN015-utf16-file.cfg": (AB, [("DN015", 1)]),
    "DN016-non-utf8.cfg": (AB, [("DN016", 9)]),
    # the NUL glues 'pad=1' onto 'stride=1': Darknet reads the option 'stride=1pad=1'
    "DN017-nul-byte.cfg": (AB, [("DN204", 9), ("DN017", 9)]),
    "DN018-not-a-cfg.cfg": (AB, [("DN018", 1)]),
    "DN019-malformed-section-header.cfg": (AB, [("DN019", 10)]),
    "DN020-unknown-section.cfg": (AB, [("DN020", 10)]),
    "DN021-section-not-in-dialect.cfg": (PJ, [("DN021", 10)]),
    "DN022-repeated-net-section.cfg": (AB, [("DN022", 10)]),
    "DN023-binary-file.cfg": (AB, [("DN023", 1)]),
    "DN024-whitespace-in-section-header.cfg": (AB, [("DN024", 6)]),
    "DN025-mixed-dialects.cfg": (AUTO, [("DN025", 1), ("DN021", 11)]),
    "DN026-dialect-ambiguous.cfg": (AUTO, [("DN026", 1)]),
    "DN027-hank-empty-net.cfg": (
        HANK,
        [("DN027", 1), ("DN390", 1)],  # one root: DN106 and the shape errors follow from it
    ),
    # a missing comma: Darknet reads one step 400800, which is after max_batches
    "DN028-glued-numbers.cfg": (AB, [("DN110", 4), ("DN028", 4)]),
    "DN101-subdivisions-zero.cfg": (AB, [("DN101", 3)]),
    "DN102-subdivisions-over-batch.cfg": (PJ, [("DN102", 3)]),
    "DN103-batch-not-divisible.cfg": (AB, [("DN103", 3)]),
    "DN104-time-steps-not-positive.cfg": (PJ, [("DN104", 2)]),
    "DN105-inputs-mismatch.cfg": (AB, [("DN105", 5)]),
    "DN106-no-input-size.cfg": (AB, [("DN106", 1), ("DN390", 1)]),
    "DN107-crop-ratio-zero-width.cfg": (PJ, [("DN107", 1)]),
    "DN108-policy-missing-option.cfg": (AB, [("DN108", 2)]),
    "DN109-steps-scales-count.cfg": (AB, [("DN109", 5)]),
    "DN110-steps-order.cfg": (AB, [("DN110", 4)]),
    "DN111-contrastive-mini-batch.cfg": (AB, [("DN111", 4)]),
    "DN112-option-ignored-by-settings.cfg": (AB, [("DN112", 3), ("DN112", 4)]),
    "DN201-unknown-option.cfg": (AB, [("DN201", 9)]),
    "DN202-option-not-in-dialect.cfg": (PJ, [("DN202", 9)]),
    "DN203-not-a-number.cfg": (AB, [("DN203", 7)]),
    "DN204-trailing-garbage.cfg": (AB, [("DN204", 8)]),
    "DN205-float-for-int.cfg": (AB, [("DN205", 9)]),
    "DN206-out-of-range.cfg": (AB, [("DN206", 7)]),
    "DN207-unknown-enum-value.cfg": (AB, [("DN207", 9)]),
    "DN208-list-empty-item.cfg": (AB, [("DN208", 11)]),
    "DN209-list-trailing-comma.cfg": (AB, [("DN209", 11)]),
    "DN211-missing-required-option.cfg": (AB, [("DN211", 10)]),
    "DN213-hank-number-format.cfg": (HANK, [("DN213", 2)]),
    # hank reads '800.5' as two steps, so the step order and the scale count break too
    # the step count and order that follow from the split are not repeated (DN109, DN110)
    "DN214-hank-list-item.cfg": (HANK, [("DN214", 4)]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gives_exact_diagnostics(name: str) -> None:
    dialect, expected = EXPECTED[name]
    path = FIXTURES / "rules" / name
    result = lint_cfg_bytes(path.read_bytes(), str(path), dialect)
    assert codes(result) == expected


def test_every_fixture_is_listed() -> None:
    on_disk = {p.name for p in (FIXTURES / "rules").glob("*.cfg")}
    assert on_disk == set(EXPECTED)


def test_each_fixture_demonstrates_its_own_rule() -> None:
    for name, (_, expected) in EXPECTED.items():
        assert name.split("-")[0] in {code for code, _ in expected}, name


def test_a_bare_key_hides_a_later_value() -> None:
    """option_find returns the first 'batch_normalize', whose value is NULL: BN stays off."""
    from conftest import lint_text

    result = lint_text("""
        [net]
        width=8
        height=8
        channels=4
        [convolutional]
        filters=2
        size=1
        batch_normalize
        batch_normalize=1
    """)
    assert codes(result) == [("DN006", 8), ("DN009", 9)]
    assert result.network is not None and result.network.layers[0].params == 2 + 8


def test_text_after_a_header_is_only_a_warning_for_hank() -> None:
    path = FIXTURES / "rules" / "DN019-malformed-section-header.cfg"
    hank = lint_cfg_bytes(path.read_bytes(), str(path), Dialect.HANK)
    assert [(d.code, d.line, d.severity.value) for d in hank.diagnostics] == [
        ("DN019", 10, "warning")]
    assert hank.network is not None and hank.network.layers[1].type == "maxpool"
