"""docs/rules.md is generated from the registry and must not be stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dnlint.docs import render
from dnlint.rules import all_rules

ROOT = Path(__file__).resolve().parents[1]


def test_rules_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/rules.md is stale: regenerate it with 'python -m dnlint.docs --write'")


def test_every_rule_has_a_section_and_a_table_row() -> None:
    text = render()
    for rule in all_rules():
        assert f"\n### {rule.code} {rule.name}\n" in text
        assert f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) |" in text


def test_every_rule_is_documented() -> None:
    for rule in all_rules():
        assert rule.summary and rule.darknet and rule.name == rule.name.lower(), rule.code
        assert " " not in rule.name, rule.code


def test_module_prints_and_writes(tmp_path: Path) -> None:
    printed = subprocess.run([sys.executable, "-m", "dnlint.docs"], capture_output=True,
                             text=True, check=True).stdout
    assert printed == render()
    target = tmp_path / "rules.md"
    subprocess.run([sys.executable, "-m", "dnlint.docs", "--write", str(target)], check=True)
    assert target.read_text(encoding="utf-8") == printed
