"""The JUnit reporter writes its XML as text; ElementTree, which it used to call, is the
reference: the same suite, byte for byte, for any path, message and hint."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from dnlint.clean import shown_path, xml_safe
from dnlint.diagnostics import Diagnostic, Severity
from dnlint.reporters.junit import suite_xml
from dnlint.reporters.text import location
from dnlint.result import FileResult

TEXT = st.text(st.sampled_from(list('ab &<>"\'\r\n\t\x00\x1b\x7fé\ud7ff\ufffe€')), max_size=12)


def element_tree_suite(file: FileResult) -> str:
    """The suite as ElementTree builds, indents (level 1) and serialises it."""
    name = xml_safe(shown_path(file.path))
    suite = ET.Element("testsuite", name=name, tests=str(max(1, len(file.diagnostics))),
                       failures=str(len(file.diagnostics)), errors="0", skipped="0")
    if not file.diagnostics:
        ET.SubElement(suite, "testcase", name="dnlint", classname=name)
    for d in file.diagnostics:
        case = ET.SubElement(suite, "testcase", name=f"{d.code} {xml_safe(location(d))}",
                             classname=name)
        if d.line is not None:
            case.set("line", str(d.line))
        failure = ET.SubElement(case, "failure", message=xml_safe(d.message),
                                type=d.severity.value)
        failure.text = xml_safe(f"{location(d)}: {d.code} {d.severity.value}: {d.message}" + (
            f"\nhint: {d.hint}" if d.hint else ""))
    ET.indent(suite, level=1)
    return ET.tostring(suite, encoding="unicode").rstrip(" ")


DIAGNOSTICS = st.lists(st.builds(
    Diagnostic, st.none() | st.integers(1, 999), st.none() | st.integers(1, 99),
    st.sampled_from(["DN103", "DN207", "DN029"]), st.sampled_from(list(Severity)), TEXT,
    st.none() | TEXT, TEXT), max_size=4)


@settings(max_examples=300, deadline=None)
@given(TEXT, DIAGNOSTICS)
def test_suite_text_is_what_element_tree_writes(path: str, diagnostics: list[Diagnostic]) -> None:
    file = FileResult(path, None, "", diagnostics)
    assert suite_xml(file.path, file.diagnostics) == element_tree_suite(file)


def test_a_clean_file_is_one_passing_case() -> None:
    assert suite_xml('a&"b.cfg', []) == (
        '<testsuite name="a&amp;&quot;b.cfg" tests="1" failures="0" errors="0" skipped="0">\n'
        '    <testcase name="dnlint" classname="a&amp;&quot;b.cfg" />\n'
        "  </testsuite>")


def test_xml_safe_keeps_exactly_what_xml_holds() -> None:
    """The one-scan pattern agrees with XML's Char production on every code point."""
    from dnlint.clean import _xml_char

    every = "".join(map(chr, range(0x110000)))
    assert xml_safe(every) == "".join(ch if _xml_char(ch) else "?" for ch in every)
    assert sum(not _xml_char(ch) for ch in every) == 29 + 2048 + 2  # C0 but 3, surrogates, FFFE/F
    assert xml_safe("a\x00b\ufffe\U0001f600\t") == "a?b?\U0001f600\t"
