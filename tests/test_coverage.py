"""Every row of §silent (docs/darknet-format.md) is a rule with a test, or a stated exception."""

from __future__ import annotations

import re

from conftest import ROOT
from dnlint.docgen.coverage import NOT_CHECKED, render, row_ids, rules_by_row
from dnlint.rules import all_rules


def test_every_reference_row_has_a_rule_or_a_reason() -> None:
    table = rules_by_row()
    missing = [row for row in row_ids() if not table[row] and row not in NOT_CHECKED]
    assert missing == []


def test_coverage_page_is_current() -> None:
    page = (ROOT / "docs" / "coverage.md").read_text()
    assert page == render(), "regenerate: python -m dnlint.docgen --write"


def test_every_rule_is_exercised_by_a_test() -> None:
    """A rule code that no test and no fixture header mentions is a rule nobody checked (the
    rule examples run for every cfg rule, but they only ask for the code somewhere)."""
    texts = "\n".join(p.read_text() for p in (ROOT / "tests").glob("test_*.py"))
    headers = "\n".join(p.read_bytes().partition(b"\n")[0].decode()
                        for p in (ROOT / "fixtures" / "rules").glob("*.cfg"))
    untested = [r.code for r in all_rules()
                if f'"{r.code}"' not in texts and not re.search(rf"\b{r.code}(:|\b)", headers)]
    assert untested == []


def test_rule_codes_are_well_formed_and_unique() -> None:
    codes = [r.code for r in all_rules()]
    assert len(codes) == len(set(codes))
    names = [r.name for r in all_rules()]
    assert len(names) == len(set(names))
    for r in all_rules():
        assert r.code.startswith("DN") and len(r.code) == 5 and r.code[2:].isdigit()
        assert r.summary and r.darknet and r.bad is not None and r.good
