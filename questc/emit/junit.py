"""Checked quests -> JUnit XML: one test case per quest file, failing as `questc lint` fails.

CI systems that show test reports (GitLab, Jenkins, Azure) then list each quest as
a passed or failed test. A file with errors fails; a file with only warnings fails
only under --strict (as the exit status does), and otherwise passes with its warnings
in the test case's output, beside the infos (printed only with --verbose). A failure
lists the file's errors and warnings as text.

`time` attributes give the seconds each check took (the suite's is their sum), when
the caller timed them (`QuestResult.seconds`; `questc lint` does). They are the only
part that differs between runs: no timestamps or host names.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Protocol

from questc.diagnostics.core import Diagnostic, Severity
from questc.emit.report import Checked, Summary, display_path, generator


class Timed(Checked, Protocol):
    """A checked quest, how long its check took (None: not timed), and whether it fails the run."""

    @property
    def seconds(self) -> float | None: ...
    def failed(self, strict: bool = False) -> bool: ...


# Characters XML 1.0 cannot carry at all, even escaped; a message quoting odd source text may hold them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _line(d: Diagnostic) -> str:
    where = f"{display_path(d.span.file)}:{d.span.line}:{d.span.column}"
    text = f"{where}: {d.severity.value}[{d.code}]: {d.message}"
    return _clean(text + (f"\n    help: {d.help}" if d.help else ""))


def _seconds(value: float | None) -> str:
    return f"{value or 0.0:.3f}"


def render(results: Sequence[Timed], strict: bool = False) -> str:
    """QuestResults in; a `<testsuites>` document out. With `strict`, warnings fail a file too."""
    cases, failures, total = [], 0, 0.0
    for r in results:
        name = _clean(display_path(r.path))
        seconds = r.seconds or 0.0
        total += seconds
        case = ET.Element(
            "testcase", {"name": name, "classname": "questc.lint", "file": name, "time": _seconds(seconds)}
        )
        # A file fails as the exit status does; its failure then lists its warnings too.
        fails = r.failed(strict)
        failing = [d for d in r.diagnostics if d.severity is not Severity.INFO] if fails else []
        passing = [d for d in r.diagnostics if d.severity is Severity.INFO or not fails]
        if failing:
            failures += 1
            summary = Summary.of(failing, 1)
            kind = "error" if summary.errors else "warning"
            first = failing[0]
            failure = ET.SubElement(
                case,
                "failure",
                {
                    "message": _clean(
                        f"{summary.sentence().removesuffix(' in 1 file')}; first: {first.code} {first.message}"
                    ),
                    "type": kind,
                },
            )
            failure.text = "\n".join(_line(d) for d in failing) + "\n"
        if passing:
            ET.SubElement(case, "system-out").text = "\n".join(_line(d) for d in passing) + "\n"
        cases.append(case)
    counts = {
        "name": "questc",
        "tests": str(len(results)),
        "failures": str(failures),
        "errors": "0",
        "skipped": "0",
        "time": _seconds(total),
    }
    root = ET.Element("testsuites", counts)
    suite = ET.SubElement(root, "testsuite", counts)
    properties = ET.SubElement(suite, "properties")  # before the test cases, as the JUnit schema has it
    ET.SubElement(properties, "property", {"name": "questc.version", "value": generator()["version"]})
    suite.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
