"""Diagnostics -> the `questc lint --format json` object (docs/json-format.md, "The lint report")."""

from __future__ import annotations

import json

from questc.diagnostics.core import Diagnostic, Fix, Span
from questc.emit.report import JSON, Summary, display_path, generator


def _place(span: Span) -> JSON:
    return {
        "file": display_path(span.file),
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def fix_json(fix: Fix) -> JSON:
    """A fix: what it does, whether it is safe, and its edits (in the diagnostic's file, end exclusive)."""
    return {
        "message": fix.message,
        "applicability": fix.applicability.value,
        "edits": [
            {
                "line": e.span.line,
                "column": e.span.column,
                "end_line": e.span.end_line,
                "end_column": e.span.end_column,
                "text": e.text,
            }
            for e in fix.edits
        ],
    }


def diagnostic_json(d: Diagnostic) -> JSON:
    return {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        **_place(d.span),
        "help": d.help,
        "labels": [{**_place(label.span), "message": label.message} for label in d.labels],
        "fixes": [fix_json(f) for f in d.fixes],
    }


def render_json(diagnostics: list[Diagnostic], files: int) -> str:
    summary = Summary.of(diagnostics, files)
    document = {
        "format_version": 1,
        "generator": generator(),
        "diagnostics": [diagnostic_json(d) for d in diagnostics],
        "summary": {
            "files": summary.files,
            "errors": summary.errors,
            "warnings": summary.warnings,
            "infos": summary.infos,
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
