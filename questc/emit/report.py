"""Diagnostics of many files -> the counts every output format ends with."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol

from questc.diagnostics.core import Diagnostic, Severity
from questc.records import record

# A JSON object as a report or the engine file holds it: its values are anything json.dumps writes.
JSON = dict[str, Any]


class Checked(Protocol):
    """A checked quest as the reports read it (questc.pipeline.QuestResult is one): the reports sit
    below the pipeline and never import it."""

    @property
    def path(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def diagnostics(self) -> Sequence[Diagnostic]: ...


@record
class Summary:
    """The counts under a report: files checked and diagnostics by severity."""

    files: int
    errors: int
    warnings: int
    infos: int

    @classmethod
    def of(cls, diagnostics: list[Diagnostic], files: int) -> Summary:
        count = {s: 0 for s in Severity}
        for d in diagnostics:
            count[d.severity] += 1
        return cls(files, count[Severity.ERROR], count[Severity.WARNING], count[Severity.INFO])

    def sentence(self, with_infos: bool = False) -> str:
        from questc.words import plural

        parts = [plural(self.errors, "error"), plural(self.warnings, "warning")]
        if with_infos and self.infos:
            parts.append(plural(self.infos, "info"))
        return f"{', '.join(parts)} in {plural(self.files, 'file')}"


def display_path(path: str) -> str:
    """A file name as users see it: relative to the current folder when inside it, with /."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path.replace(os.sep, "/")
    if rel.startswith(".."):
        return path.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def generator() -> JSON:
    """Who wrote an output: questc and its version (questc/__init__.py, the one place it is written)."""
    from questc import __version__

    return {"name": "questc", "version": __version__}
