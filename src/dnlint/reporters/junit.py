"""``--format junit``: one ``<testsuite>`` per file, one failing ``<testcase>`` per diagnostic.

A clean file is one passing test case, so CI dashboards count checked files too.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dnlint.engine import RunResult
from dnlint.reporters import ReportContext
from dnlint.reporters.text import location
from dnlint.result import FileResult


def junit_tree(run: RunResult) -> ET.Element:
    total = sum(max(1, len(f.diagnostics)) for f in run.files)
    failures = len(run.diagnostics)
    root = ET.Element("testsuites", name="dnlint", tests=str(total), failures=str(failures),
                      errors="0")
    for file in run.files:
        root.append(_suite(file))
    return root


def _suite(file: FileResult) -> ET.Element:
    suite = ET.Element("testsuite", name=file.path, tests=str(max(1, len(file.diagnostics))),
                       failures=str(len(file.diagnostics)), errors="0", skipped="0")
    if not file.diagnostics:
        ET.SubElement(suite, "testcase", name="dnlint", classname=file.path)
    for d in file.diagnostics:
        case = ET.SubElement(suite, "testcase", name=f"{d.code} {location(d)}",
                             classname=file.path)
        if d.line is not None:
            case.set("line", str(d.line))
        failure = ET.SubElement(case, "failure", message=d.message, type=d.severity.value)
        failure.text = f"{location(d)}: {d.code} {d.severity.value}: {d.message}" + (
            f"\nhint: {d.hint}" if d.hint else "")
    return suite


def report_junit(run: RunResult, ctx: ReportContext) -> None:
    root = junit_tree(run)
    ET.indent(root)
    ctx.stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    ctx.stream.write(ET.tostring(root, encoding="unicode"))
    ctx.stream.write("\n")
