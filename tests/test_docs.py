"""docs/rules.md is generated from the registry and must not be stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dnlint.docgen.rules_page import render
from dnlint.rules import all_rules

ROOT = Path(__file__).resolve().parents[1]


def test_rules_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/rules.md is stale: regenerate it with 'python -m dnlint.docgen --write'")


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
    printed = subprocess.run([sys.executable, "-m", "dnlint.docgen"], capture_output=True,
                             text=True, check=True).stdout
    assert printed == render()
    target = tmp_path / "rules.md"
    subprocess.run([sys.executable, "-m", "dnlint.docgen", "--write", str(target)], check=True)
    assert target.read_text(encoding="utf-8") == printed


def _between(text: str, start: str, end: str) -> str:
    head = text.index(start) + len(start)
    return text[head:text.index(end, head)]


def _apply_diff(text: str, diff: str) -> str:
    for hunk in diff.split("@@\n"):
        lines = [line for line in hunk.splitlines() if line]
        old = "".join(line[1:] + "\n" for line in lines if line[0] in " -")
        new = "".join(line[1:] + "\n" for line in lines if line[0] in " +")
        assert old in text, f"the diff in docs/usage.md does not apply: {old!r}"
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize("page", ["docs/usage.md", "README.md"])
def test_usage_session_is_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str) -> None:
    """The page shows a broken cfg, dnlint's output and the fix: all three must be true."""
    from click.testing import CliRunner

    from dnlint.cli import main

    usage = (ROOT / page).read_text(encoding="utf-8")
    name = "yolo-tiny-2class.cfg"
    cfg = _between(usage, f"$ cat {name}\n", f"$ dnlint {name}\n")
    shown = _between(usage, f"$ dnlint {name}\n", "$ echo $?\n")
    status = _between(usage, f"{shown}$ echo $?\n", "\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(cfg)
    result = CliRunner().invoke(main, ["--no-config", name])
    assert (result.stdout, str(result.exit_code)) == (shown, status), (
        "docs/usage.md's session is out of date: paste the real output")
    (tmp_path / name).write_text(_apply_diff(cfg, _between(usage, "```diff\n", "```\n")))
    fixed = CliRunner().invoke(main, ["--no-config", name])
    after = _between(usage, f"```console\n$ dnlint {name}\n", "$ echo $?\n")
    assert (fixed.stdout, fixed.exit_code) == (after, 0)


def test_readme_weights_example_is_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's weights session, re-run on the files it describes."""
    import struct

    from click.testing import CliRunner

    from dnlint.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    header = struct.pack("<iiiQ", 0, 2, 5, 0)
    (tmp_path / "model.cfg").write_bytes(
        (ROOT / "fixtures" / "examples" / "tiny-detector.cfg").read_bytes())
    (tmp_path / "model.weights").write_bytes(header + bytes(4 * 500_000))
    (tmp_path / "model.conv.9").write_bytes(header + bytes(4 * (496 + 4736 + 18688 + 74240
                                                                 + 295936)))
    monkeypatch.chdir(tmp_path)
    for argv, until in ((["model.cfg", "--weights", "model.weights"], "$ dnlint model.conv.9\n"),
                        (["model.conv.9"], "```\n")):
        command = "$ dnlint " + " ".join(argv) + "\n"
        shown = _between(readme, command, until)
        assert CliRunner().invoke(main, ["--no-config", *argv]).output == shown
