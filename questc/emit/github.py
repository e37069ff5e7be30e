"""Checked quests -> GitHub Actions workflow commands (`::error file=...::message`), one per diagnostic.

GitHub turns each line into an annotation on the file and line in the pull request.
Errors and warnings keep their level; infos become `::notice`.
"""

from __future__ import annotations

from collections.abc import Sequence

from questc.diagnostics.core import Diagnostic, Severity
from questc.emit.report import Checked, display_path

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """A command's message: `%`, CR and LF escaped, as the runner unescapes them."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title): also `:` and `,`, which would end the value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic) -> str:
    """One diagnostic as one workflow command line (no newline at the end).

    Columns are sent only for a one-line span: the runner rejects `col`/`endColumn`
    when `line` and `endLine` differ. `endColumn` is the last column of the span
    (GitHub counts it inclusively; our spans end one column after).
    """
    span = d.span
    properties = [("file", display_path(span.file)), ("line", str(span.line))]
    if span.end_line == span.line:
        properties += [
            ("col", str(span.column)),
            ("endLine", str(span.end_line)),
            ("endColumn", str(max(span.column, span.end_column - 1))),
        ]
    else:
        properties.append(("endLine", str(span.end_line)))
    properties.append(("title", d.code))
    message = d.message + (f"\nhelp: {d.help}" if d.help else "")
    values = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{_COMMANDS[d.severity]} {values}::{escape_data(message)}"


def render(results: Sequence[Checked]) -> str:
    """QuestResults in; the workflow commands for all their diagnostics out, one per line."""
    lines = [annotation(d) for r in results for d in r.diagnostics]
    return "".join(line + "\n" for line in lines)
