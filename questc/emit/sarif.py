"""Checked quests -> one SARIF 2.1.0 log (for GitHub code scanning and other SARIF viewers).

The rules are every diagnostic code of the installation, with the code's page as
help and its section of docs/diagnostics.md as `helpUri`; results point at
repo-relative files (relative to the current folder) with full 1-based regions, and
carry a `partialFingerprints` entry that survives unrelated edits (emit/fingerprint.py). Spans already count code points with an exclusive end column,
which is SARIF's `unicodeCodePoints` convention, so regions are copied unchanged.
The log is deterministic: same diagnostics, same bytes (no times, no absolute paths).
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import quote

from questc.diagnostics.core import Descriptor, Diagnostic, Fix, Severity, Span
from questc.emit.report import JSON, display_path
from questc.rules import descriptors

if TYPE_CHECKING:
    from collections.abc import Sequence

    from questc.emit.report import Checked


SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT = "questc/v1"  # the partialFingerprints key: a new version if the recipe ever changes
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


@cache
def tool_version() -> str:
    from questc import __version__

    return __version__


def _paragraphs(text: str) -> str:
    """Hard-wrapped prose -> one line per paragraph (viewers wrap it themselves)."""
    blocks = [" ".join(line.strip() for line in block.splitlines()) for block in text.strip().split("\n\n")]
    return "\n\n".join(b for b in blocks if b)


def help_markdown(entry: Descriptor) -> str:
    """A code's page (as `questc explain` prints it) in Markdown, for the rule's help."""
    parts = [
        f"**{entry.code}: {entry.name}** ({entry.severity.value})",
        entry.summary,
        _paragraphs(entry.explanation),
        "Failing example:",
        "```\n" + entry.example.failing.strip("\n") + "\n```",
        "Fixed:",
        "```\n" + entry.example.fixed.strip("\n") + "\n```",
    ]
    if entry.minimum is Severity.ERROR:
        parts.append("This code is always an error: configuration cannot lower it.")
    return "\n\n".join(parts) + "\n"


def rule(entry: Descriptor) -> JSON:
    from questc.project import diagnostic_page

    out = {
        "id": entry.code,
        "name": entry.name,
        "shortDescription": {"text": entry.summary},
        "fullDescription": {"text": _paragraphs(entry.explanation)},
        "help": {"text": entry.page(), "markdown": help_markdown(entry)},
    }
    page = diagnostic_page(entry.code)
    if page is not None:
        out["helpUri"] = page
    default: JSON = {"level": _LEVELS[entry.severity]}
    if entry.opt_in:  # a style suggestion shown only when selected: off unless configured
        default["enabled"] = False
    out.update({"defaultConfiguration": default, "properties": {"tags": [f"{entry.code[:2]}xx"]}})
    return out


def _uri(path: str) -> str:
    return quote(display_path(path), safe="/")


def _region(span: Span) -> JSON:
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": max(span.end_column, span.column),
    }


def _location(span: Span) -> JSON:
    return {"physicalLocation": {"artifactLocation": {"uri": _uri(span.file)}, "region": _region(span)}}


def result(d: Diagnostic, index: dict[str, int], fingerprint: str | None = None) -> JSON:
    """One diagnostic as a SARIF result; `index` maps codes to their place in the rules."""
    text = d.message + (f"\nhelp: {d.help}" if d.help else "")
    out: dict[str, object] = {"ruleId": d.code}
    if d.code in index:
        out["ruleIndex"] = index[d.code]
    out.update({"level": _LEVELS[d.severity], "message": {"text": text}, "locations": [_location(d.span)]})
    if d.labels:
        related = []
        for number, label in enumerate(d.labels, start=1):
            place: dict[str, object] = {"id": number, **_location(label.span)}
            if label.message:
                place["message"] = {"text": label.message}
            related.append(place)
        out["relatedLocations"] = related
    if fingerprint is not None:
        out["partialFingerprints"] = {FINGERPRINT: fingerprint}
    if d.fixes:
        out["fixes"] = [fix(f) for f in d.fixes]
    return out


def fix(f: Fix) -> JSON:
    """A fix as SARIF's `fix`: its description, and per file the regions replaced (an empty
    region inserts, a replacement without `insertedContent` deletes). Safe or unsafe goes
    in the properties, SARIF having no word for it."""
    changes: dict[str, list[JSON]] = {}
    for edit in f.edits:
        replacement: JSON = {"deletedRegion": _region(edit.span)}
        if edit.text:
            replacement["insertedContent"] = {"text": edit.text}
        changes.setdefault(edit.span.file, []).append(replacement)
    return {
        "description": {"text": f.message},
        "artifactChanges": [
            {"artifactLocation": {"uri": _uri(file)}, "replacements": replacements}
            for file, replacements in changes.items()
        ],
        "properties": {"applicability": f.applicability.value},
    }


def sarif_log(results: Sequence[Checked]) -> JSON:
    """QuestResults in; the SARIF log as a dict out."""
    from questc.emit.fingerprint import fingerprints
    from questc.project import home_page

    rules = [rule(entry) for entry in descriptors().values()]
    index = {r["id"]: number for number, r in enumerate(rules)}
    driver: JSON = {"name": "questc", "version": tool_version(), "semanticVersion": tool_version()}
    if home_page() is not None:
        driver["informationUri"] = home_page()
    driver["rules"] = rules
    found = [result(d, index, fp) for r in results for d, fp in zip(r.diagnostics, fingerprints(r), strict=True)]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": found}],
    }


def render(results: Sequence[Checked]) -> str:
    """QuestResults in; the SARIF log as JSON text out."""
    return json.dumps(sarif_log(results), indent=2, ensure_ascii=False) + "\n"
