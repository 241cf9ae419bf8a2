"""``--format junit``: one ``<testsuite>`` per file, one failing ``<testcase>`` per diagnostic.

A clean file is one passing test case, so CI dashboards count checked files too.
"""

from __future__ import annotations

from dnlint.clean import shown_path, xml_safe
from dnlint.diagnostics import Diagnostic
from dnlint.reporters import ReportContext
from dnlint.reporters.text import location
from dnlint.result import FileResult, RunTotals


class JunitReporter:
    """JUnit XML, each file's suite written as soon as the file is done.

    The root element carries no totals (``tests``, ``failures``, ``errors``): they are known
    only at the end, and writing them first would mean keeping every suite until then. They
    are optional: Jenkins' description of the format makes every ``testsuites`` attribute
    optional, the Ant schema (``JUnit.xsd``) declares none, and GitLab reads the test cases.
    Each ``<testsuite>`` still has its own counts.
    """

    def __init__(self, ctx: ReportContext) -> None:
        self.stream = ctx.stream
        self.stream.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dnlint">\n')

    def file(self, result: FileResult) -> None:
        for path, diagnostics in _by_file(result):
            self.stream.write("  " + suite_xml(path, diagnostics) + "\n")

    def finish(self, totals: RunTotals, exit_status: int | None = None) -> None:
        self.stream.write("</testsuites>\n")

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


def suite_xml(path: str, diagnostics: list[Diagnostic]) -> str:
    """One file's ``<testsuite>``, indented as its place in the document wants it.

    Written as text: ElementTree's pure-Python serializer and ``ET.indent`` cost 0.08 ms a
    file, as much as a tenth of the lint. The escaping is ElementTree's (``&<>"`` and, in
    attributes, CR, LF and tab as character references), and a test compares the two.
    """
    name = _attribute(xml_safe(shown_path(path)))
    count = len(diagnostics)
    head = (f'<testsuite name="{name}" tests="{max(1, count)}" failures="{count}" errors="0" '
            'skipped="0">')
    cases = [_case(d, name) for d in diagnostics] or [
        f'<testcase name="dnlint" classname="{name}" />']
    return head + "".join("\n    " + case for case in cases) + "\n  </testsuite>"


def _case(d: Diagnostic, classname: str) -> str:
    where = location(d)
    title = _attribute(f"{d.code} {xml_safe(where)}")
    line = f' line="{d.line}"' if d.line is not None else ""
    text = xml_safe(f"{where}: {d.code} {d.severity.value}: {d.message}" + (
        f"\nhint: {d.hint}" if d.hint else ""))
    return (f'<testcase name="{title}" classname="{classname}"{line}>\n'
            f'      <failure message="{_attribute(xml_safe(d.message))}" '
            f'type="{d.severity.value}">{_text(text)}</failure>\n'
            "    </testcase>")


_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                            "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"})


def _text(text: str) -> str:
    return text.translate(_TEXT)


def _attribute(text: str) -> str:
    return text.translate(_ATTRIBUTE)
