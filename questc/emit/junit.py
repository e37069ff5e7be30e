"""Checked quests -> JUnit XML: one test case per quest file, failing when it has errors or warnings.

CI systems that show test reports (GitLab, Jenkins, Azure) then list each quest as
a passed or failed test. The failure lists the file's diagnostics as text; infos
(printed only with --verbose) go to the test case's output instead, since they fail
nothing. No times or host names: same diagnostics, same bytes.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from questc.diagnostics.core import Diagnostic, Severity
from questc.emit.report import Summary, display_path


# Characters XML 1.0 cannot carry at all, even escaped; a message quoting odd source text may hold them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _line(d: Diagnostic) -> str:
    where = f"{display_path(d.span.file)}:{d.span.line}:{d.span.column}"
    text = f"{where}: {d.severity.value}[{d.code}]: {d.message}"
    return _clean(text + (f"\n    help: {d.help}" if d.help else ""))


def render(results) -> str:
    """QuestResults in; a `<testsuites>` document out."""
    cases, failures = [], 0
    for r in results:
        name = _clean(display_path(r.path))
        case = ET.Element("testcase", {"name": name, "classname": "questc.lint", "file": name})
        failing = [d for d in r.diagnostics if d.severity is not Severity.INFO]
        infos = [d for d in r.diagnostics if d.severity is Severity.INFO]
        if failing:
            failures += 1
            summary = Summary.of(failing, 1)
            kind = "error" if summary.errors else "warning"
            first = failing[0]
            failure = ET.SubElement(case, "failure", {
                "message": _clean(f"{summary.sentence().removesuffix(' in 1 file')}; first: {first.code} {first.message}"),
                "type": kind})
            failure.text = "\n".join(_line(d) for d in failing) + "\n"
        if infos:
            ET.SubElement(case, "system-out").text = "\n".join(_line(d) for d in infos) + "\n"
        cases.append(case)
    counts = {"name": "questc", "tests": str(len(results)), "failures": str(failures), "errors": "0",
              "skipped": "0"}
    root = ET.Element("testsuites", counts)
    suite = ET.SubElement(root, "testsuite", counts)
    suite.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
