"""Checked quests -> a GitLab Code Quality report (`questc lint --format gitlab`).

GitLab reads a JSON array of findings, a subset of the Code Climate format, from a
job's `artifacts:reports:codequality` file and shows them in merge requests. Each
finding has the fields GitLab documents as required: `description`, `check_name`
(the code), `fingerprint` (unique in the report, stable across unrelated edits, see
emit/fingerprint.py), `severity` (info, minor, major, critical or blocker) and
`location.path` (relative, no leading `./`) with `location.lines.begin`; questc adds
`location.lines.end` and `location.positions` (line and column) where GitLab shows
them, and `categories` ("Bug Risk" for every code: a quest that plays wrong).

Severities: error -> major (the quest cannot be built), warning -> minor, info -> info,
as ESLint's GitLab formatter maps them. Paths are relative to $CI_PROJECT_DIR when
GitLab sets it (as the report's paths must be), else to the current folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from questc.diagnostics.core import Diagnostic, Severity
from questc.emit.report import JSON, Checked, display_path

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def _path(file: str) -> str:
    project = os.environ.get("CI_PROJECT_DIR")
    if project:
        try:
            relative = os.path.relpath(os.path.abspath(file), os.path.abspath(project))
        except ValueError:  # another drive on Windows
            relative = ".."
        if not relative.startswith(".."):
            return relative.replace(os.sep, "/")
    return display_path(file).removeprefix("./")


def finding(d: Diagnostic, fingerprint: str) -> JSON:
    span = d.span
    text = d.message + (f" (help: {d.help})" if d.help else "")
    return {
        "description": f"{d.code}: {text}",
        "check_name": d.code,
        "fingerprint": fingerprint,
        "severity": SEVERITIES[d.severity],
        "categories": ["Bug Risk"],
        "location": {
            "path": _path(span.file),
            "lines": {"begin": span.line, "end": max(span.end_line, span.line)},
            "positions": {
                "begin": {"line": span.line, "column": span.column},
                "end": {"line": max(span.end_line, span.line), "column": span.end_column},
            },
        },
    }


def render(results: Sequence[Checked]) -> str:
    """QuestResults in; the Code Quality JSON array out (`[]` when there is nothing to report)."""
    from questc.emit.fingerprint import fingerprints

    findings = [finding(d, fp) for r in results for d, fp in zip(r.diagnostics, fingerprints(r), strict=True)]
    return json.dumps(findings, indent=2, ensure_ascii=False) + "\n"
