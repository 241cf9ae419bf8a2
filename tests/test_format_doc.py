"""docs/darknet-format.md: every reference to it resolves, and its generated tables are current.

References come in three forms: a rule's ``reference`` (row ids such as ``S15`` and anchors such
as ``§lines``), a section sign and an anchor name in the code and the docs, and Markdown links to
an anchor of the page (from other pages, or inside the page itself).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT
from dnlint.docgen.coverage import row_ids
from dnlint.docgen.format_tables import render, replace_block
from dnlint.network.layers import all_types
from dnlint.rules import all_rules

PAGE = ROOT / "docs" / "darknet-format.md"
_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
_SECTION_SIGN = re.compile(r"§([A-Za-z][\w-]*\w)")
_LINK = re.compile(r"darknet-format\.md#([\w-]+)")
_INNER_LINK = re.compile(r"\]\(#([\w-]+)\)")


def anchors() -> list[str]:
    return _ANCHOR.findall(PAGE.read_text(encoding="utf-8"))


def project_texts() -> list[Path]:
    """The sources, tests and documents that may cite the page."""
    paths = [*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").glob("*.py"), ROOT / "bench",
             *(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "CONTRIBUTING.md",
             ROOT / "CHANGELOG.md"]
    return [p for p in paths if p.is_file()]


def test_anchors_are_unique() -> None:
    found = anchors()
    assert len(found) == len(set(found))


def test_every_rule_reference_resolves() -> None:
    known = set(anchors())
    dangling = [(r.code, a) for r in all_rules() for a in r.format_anchors() if a not in known]
    assert dangling == []


def test_rule_references_are_anchors_or_named_elsewhere() -> None:
    """A reference token is a row id, a section sign and an anchor, another document's link or
    a dnlint option; a target's rule (DN6xx) names the target's own source instead."""
    tools = {"opencv": "opencv ", "tensorrt-demos": "jkjung-avt/tensorrt_demos ",
             "hank-onnx": "hank-ai/darknet "}
    for rule in all_rules():
        if rule.target is not None:
            assert rule.reference.lower().startswith(tools[rule.target]), rule.code
            continue
        others = [t.strip() for t in rule.reference.split(",") if t.strip()]
        others = [t for t in others if t.lstrip("§") not in rule.format_anchors()]
        for token in others:
            assert token.startswith(("docs/", "dnlint")), (rule.code, token)


@pytest.mark.parametrize("path", project_texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_section_sign_and_link_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    known = set(anchors())
    cited = set(_SECTION_SIGN.findall(text)) | set(_LINK.findall(text))
    if path == PAGE:
        cited |= set(_INNER_LINK.findall(text))
    assert sorted(cited - known) == []


@pytest.mark.parametrize("path", project_texts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_cites_the_document_outside_the_repository(path: Path) -> None:
    old = "darknet" + "-reference"
    assert old not in path.read_text(encoding="utf-8")


def test_every_silent_acceptance_row_and_layer_type_has_an_anchor() -> None:
    known = set(anchors())
    assert [row for row in row_ids() if row not in known] == []
    assert [t.name for t in all_types() if f"layer-{t.name}" not in known] == []


def test_other_documents_links_resolve() -> None:
    """Rule references into other pages (docs/usage.md#suppressions) name a real heading."""
    for rule in all_rules():
        for token in (t.strip() for t in rule.reference.split(",")):
            if token.startswith("docs/") and "#" in token:
                page, anchor = token.split("#")
                headings = re.findall(r"^#+ (.+)$", (ROOT / page).read_text(), re.M)
                slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                         for h in headings}
                assert anchor in slugs, (rule.code, token)


def test_generated_options_are_current() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert replace_block(page) == page, (
        "docs/darknet-format.md's option tables are stale: python -m dnlint.docgen --write")
    assert render() in page
