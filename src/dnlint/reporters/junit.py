"""``--format junit``: one ``<testsuite>`` per file, one failing ``<testcase>`` per diagnostic.

A clean file is one passing test case, so CI dashboards count checked files too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dnlint.clean import shown_path, xml_safe
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
        suite = _suite(result)
        ET.indent(suite, level=1)
        self.suites.append(ET.tostring(suite, encoding="unicode"))
        self.tests += max(1, len(result.diagnostics))

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


def _suite(file: FileResult) -> ET.Element:
    name = xml_safe(shown_path(file.path))
    suite = ET.Element("testsuite", name=name, tests=str(max(1, len(file.diagnostics))),
                       failures=str(len(file.diagnostics)), errors="0", skipped="0")
    if not file.diagnostics:
        ET.SubElement(suite, "testcase", name="dnlint", classname=name)
    for d in file.diagnostics:
        where = xml_safe(location(d))
        case = ET.SubElement(suite, "testcase", name=f"{d.code} {where}", classname=name)
        if d.line is not None:
            case.set("line", str(d.line))
        failure = ET.SubElement(case, "failure", message=xml_safe(d.message),
                                type=d.severity.value)
        failure.text = xml_safe(f"{location(d)}: {d.code} {d.severity.value}: {d.message}" + (
            f"\nhint: {d.hint}" if d.hint else ""))
    return suite
