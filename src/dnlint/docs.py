"""Generate ``docs/rules.md`` from the rule registry.

    python -m dnlint.docs            # print it
    python -m dnlint.docs --write    # write docs/rules.md (or --write PATH)

``tests/test_docs.py`` fails when the committed page differs from what this prints.
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
    "DN9": "DN9xx: dnlint's own directives",
}
DEFAULT_PATH = Path("docs") / "rules.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str) -> list[str]:
    body = text.strip("\n") or "(empty file)"
    return ["```ini", *body.splitlines(), "```"]


def _section(rule: Rule) -> list[str]:
    lines = [
        f"### {rule.code} {rule.name}",
        "",
        f"Severity: **{rule.severity.value}**. {rule.summary}",
        "",
        f"What Darknet does: {rule.darknet}",
        "",
        "Example:",
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
        lines += [f"Reference: {rule.reference}", ""]
    return lines


def render() -> str:
    rules = all_rules()
    lines = [
        "# dnlint rules",
        "",
        "Generated from the rule registry by `python -m dnlint.docs --write`; do not edit by "
        "hand. `dnlint --explain CODE` prints the same text, and `dnlint --list-rules` the table.",
        "",
        "| Code | Name | Severity | Summary |",
        "|------|------|----------|---------|",
    ]
    lines += [f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.severity.value} | "
              f"{_cell(r.summary)} |" for r in rules]
    lines.append("")
    family = None
    for rule in rules:
        if rule.code[:3] != family:
            family = rule.code[:3]
            lines += [f"## {FAMILY_TITLES.get(family, family + 'xx')}", ""]
        lines += _section(rule)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv and argv[0] == "--write":
        target = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
