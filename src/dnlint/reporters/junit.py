"""``--format junit``: one ``<testsuite>`` per file, one failing ``<testcase>`` per diagnostic.

A clean file is one passing test case, so CI dashboards count checked files too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dnlint.clean import shown_path, xml_safe
from dnlint.diagnostics import Diagnostic
from dnlint.reporters import ReportContext
from dnlint.reporters.text import location
from dnlint.result import FileResult, RunTotals


class JunitReporter:
    """JUnit XML. The root element carries the totals, so each file's suite is kept, as XML
    text holding only its diagnostics, until the end."""

    def __init__(self, ctx: ReportContext) -> None:
        self.stream = ctx.stream
        self.suites: list[str] = []
        self.tests = 0

    def file(self, result: FileResult) -> None:
        for path, diagnostics in _by_file(result):
            suite = _suite(path, diagnostics)
            ET.indent(suite, level=1)
            self.suites.append(ET.tostring(suite, encoding="unicode"))
            self.tests += max(1, len(diagnostics))

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        root = ET.Element("testsuites", name="dnlint", tests=str(self.tests),
                          failures=str(totals.total), errors="0")
        open_tag = ET.tostring(root, encoding="unicode").removesuffix(" />")
        out = self.stream
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        if not self.suites:
            out.write(open_tag + " />\n")
            return
        out.write(open_tag + ">\n")
        for suite in self.suites:
            out.write("  " + suite.rstrip(" ") + "\n")
        out.write("</testsuites>\n")


def _by_file(result: FileResult) -> list[tuple[str, list[Diagnostic]]]:
    """One test suite per file: a weights file's findings belong to its own suite, not its
    cfg's (a cfg linted only for its weights has no suite of its own)."""
    groups: dict[str, list[Diagnostic]] = {result.path: []} if result.given else {}
    report = result.checked_weights
    if report is not None and report.path is not None:
        groups.setdefault(report.path, [])
    for d in result.diagnostics:
        groups.setdefault(d.path or result.path, []).append(d)
    return list(groups.items())


def _suite(path: str, diagnostics: list[Diagnostic]) -> ET.Element:
    name = xml_safe(shown_path(path))
    suite = ET.Element("testsuite", name=name, tests=str(max(1, len(diagnostics))),
                       failures=str(len(diagnostics)), errors="0", skipped="0")
    if not diagnostics:
        ET.SubElement(suite, "testcase", name="dnlint", classname=name)
    for d in diagnostics:
        where = xml_safe(location(d))
        case = ET.SubElement(suite, "testcase", name=f"{d.code} {where}", classname=name)
        if d.line is not None:
            case.set("line", str(d.line))
        failure = ET.SubElement(case, "failure", message=xml_safe(d.message),
                                type=d.severity.value)
        failure.text = xml_safe(f"{location(d)}: {d.code} {d.severity.value}: {d.message}" + (
            f"\nhint: {d.hint}" if d.hint else ""))
    return suite
