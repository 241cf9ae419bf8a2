"""Every fixture under fixtures/rules gives exactly the diagnostics its first line lists.

The header format is described in :class:`conftest.Fixture` and in CONTRIBUTING.md. A fixture
with a .weights file of the same name is checked with that file too (as ``--weights``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, Fixture, codes, read_fixture
from dnlint.dialects import Dialect
from dnlint.lint import attach_prediction, lint_cfg_bytes
from dnlint.weights import alternatives
from dnlint.weights.check import check_file
from dnlint.weights.scan import scan_weights

RULES = FIXTURES / "rules"


def fixture_paths() -> list[Path]:
    return sorted(RULES.glob("*.cfg"))


def lint_fixture(fixture: Fixture) -> list[tuple[str, int | None]]:
    result = lint_cfg_bytes(fixture.data, str(fixture.path), fixture.dialect)
    found = codes(result)
    if fixture.weights is not None:
        report = attach_prediction(result)
        assert report is not None, "the cfg of a weights fixture must build"
        assert result.document is not None and result.dialect is not None
        others = alternatives(result.document, result.dialect, report)
        diagnostics = check_file(report, fixture.weights, others)
        if fixture.scan:
            diagnostics += scan_weights(report)
        found += [(d.code, d.line) for d in diagnostics]
    return found


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: p.stem)
def test_fixture_gives_exact_diagnostics(path: Path) -> None:
    fixture = read_fixture(path)
    assert lint_fixture(fixture) == fixture.expected


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: p.stem)
def test_each_fixture_demonstrates_its_own_rule(path: Path) -> None:
    fixture = read_fixture(path)
    assert path.name.split("-")[0] in {code for code, _ in fixture.expected}


def test_every_weights_file_has_its_cfg() -> None:
    assert {p.stem for p in RULES.glob("*.weights")} <= {p.stem for p in fixture_paths()}


def test_fixtures_cover_every_family() -> None:
    families = {p.name[:3] for p in fixture_paths()}
    assert families >= {"DN0", "DN1", "DN2", "DN3", "DN4", "DN5"}


def test_header_is_checked() -> None:
    with pytest.raises(ValueError, match="first line"):
        read_fixture(RULES.parent / "examples" / "tiny-detector.cfg")


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
    # one root cause: the bare line, which names the line it hides (no DN009 on that one)
    assert codes(result) == [("DN006", 8)]
    assert result.diagnostics[0].message.endswith("; here it hides line 9 ('batch_normalize=1')")
    assert result.network is not None and result.network.layers[0].params == 2 + 8


def test_text_after_a_header_is_only_a_warning_for_hank() -> None:
    fixture = read_fixture(RULES / "DN019-malformed-section-header.cfg")
    hank = lint_cfg_bytes(fixture.data, str(fixture.path), Dialect.HANK)
    assert [(d.code, d.line, d.severity.value) for d in hank.diagnostics] == [
        ("DN019", 10, "warning")]
    assert hank.network is not None and hank.network.layers[1].type == "maxpool"
