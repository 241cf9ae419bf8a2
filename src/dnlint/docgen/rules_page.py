"""Generate ``docs/rules.md`` from the rule registry.

    python -m dnlint.docgen                 # print it
    python -m dnlint.docgen --write         # write every generated page (see below)
    python -m dnlint.docgen --write PATH    # write only this page, to PATH

``--write`` regenerates all pages generated from the registries: docs/rules.md,
docs/coverage.md and the option tables of docs/darknet-format.md. ``tests/test_docs.py``,
``tests/test_coverage.py`` and ``tests/test_format_doc.py`` fail when a committed page differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dnlint.rules import Rule, all_rules

FAMILY_TITLES = {
    "DN0": "DN0xx: the file and its syntax",
    "DN1": "DN1xx: the [net] section",
    "DN2": "DN2xx: options and their values",
    "DN3": "DN3xx: topology and shapes",
    "DN4": "DN4xx: detection heads and .data files",
    "DN5": "DN5xx: .weights files",
    "DN6": "DN6xx: deployment targets (--target opencv, tensorrt-demos, hank-onnx)",
    "DN9": "DN9xx: dnlint's own directives",
}
DEFAULT_PATH = Path("docs") / "rules.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str) -> list[str]:
    body = text.strip("\n") or "(empty file)"
    return ["```ini", *body.splitlines(), "```"]


def _reference(rule: Rule) -> str:
    """Links into darknet-format.md for row ids and § anchors; other references as text."""
    anchors = set(rule.format_anchors())
    links = []
    for token in (t.strip() for t in rule.reference.split(",")):
        anchor = token.lstrip("§")
        links.append(f"[{token}](darknet-format.md#{anchor})" if anchor in anchors else token)
    return ", ".join(links)


def _section(rule: Rule) -> list[str]:
    lines = [
        f"### {rule.code} {rule.name}",
        "",
        f"Severity: **{rule.severity.value}**. {rule.summary}",
        "",
        f"Error or warning: {rule.severity_line}",
        "",
        f"What Darknet does: {rule.darknet}",
        "",
        *([rule.fix_note, ""] if rule.fix else []),
        f"Example{rule.example_note()}:",
        "",
        *_fence(rule.bad),
        "",
        "Use instead:",
        "",
        *_fence(rule.good),
        "",
    ]
    if rule.stock:
        lines += [f"On the stock cfgs: {rule.stock}", ""]
    if rule.reference:
        lines += [f"Reference: {_reference(rule)}", ""]
    return lines


def render() -> str:
    rules = all_rules()
    lines = [
        "# dnlint rules",
        "",
        "Generated from the rule registry by `python -m dnlint.docgen --write`; do not edit by "
        "hand. `dnlint --explain CODE` prints the same text, and `dnlint --list-rules` the table.",
        "",
        "Fix: `safe` rules are repaired by `dnlint --fix`, `unsafe` ones only with "
        "`--unsafe-fixes` too.",
        "",
        "An error means that Darknet misreads what is written, misbehaves, or cannot build the "
        "file; a warning, that it reads the text as written but the result is probably not what "
        "was meant or breaks on a later edit. A rule whose severity depends on the dialect or "
        "on the case says where the line runs, once, under \"Error or warning\".",
        "",
        "The DN7xx rules (the training recipe of AlexeyAB's README) are off by default, like "
        "ruff's preview rules: `--select DN7` (or `--extend-select DN7`, or one code) or "
        "`recipe = true` in the configuration turns them on; `--select ALL` does not.",
        "",
        "| Code | Name | Severity | Fix | Summary |",
        "|------|------|----------|-----|---------|",
    ]
    lines += [f"| [{r.code}](#{r.anchor}) | {r.name} | {r.severity.value} | "
              f"{r.fix or ''} | {_cell(r.summary)} |" for r in rules]
    lines.append("")
    family = None
    for rule in rules:
        if rule.code[:3] != family:
            family = rule.code[:3]
            lines += [f"## {FAMILY_TITLES.get(family, family + 'xx')}", ""]
        lines += _section(rule)
    return "\n".join(lines).rstrip("\n") + "\n"


def write_all() -> None:
    """Every generated page, so that adding a rule, an option or a layer needs one command."""
    from dnlint.docgen import coverage, format_tables

    DEFAULT_PATH.write_text(render(), encoding="utf-8")
    (DEFAULT_PATH.parent / "coverage.md").write_text(coverage.render(), encoding="utf-8")
    page = format_tables.DEFAULT_PATH.read_text(encoding="utf-8")
    format_tables.DEFAULT_PATH.write_text(format_tables.replace_block(page), encoding="utf-8")


def main(argv: list[str]) -> int:
    text = render()
    if argv == ["--write"]:
        write_all()
        return 0
    if argv and argv[0] == "--write":
        target = Path(argv[1])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
