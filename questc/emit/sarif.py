"""Checked quests -> one SARIF 2.1.0 log (for GitHub code scanning and other SARIF viewers).

The rules are every diagnostic code of the installation, with the code's page as
help; results point at repo-relative files (relative to the current folder) with
full 1-based regions. Spans already count code points with an exclusive end column,
which is SARIF's `unicodeCodePoints` convention, so regions are copied unchanged.
The log is deterministic: same diagnostics, same bytes (no times, no absolute paths).
"""
from __future__ import annotations

import json
from functools import lru_cache
from urllib.parse import quote

from questc.diagnostics.core import Descriptor, Diagnostic, Severity, Span
from questc.emit.report import display_path
from questc.rules import descriptors

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FALLBACK_URI = "https://pypi.org/project/questc/"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


@lru_cache(maxsize=None)
def tool_version() -> str:
    from questc import __version__
    return __version__


@lru_cache(maxsize=None)
def information_uri() -> str:
    """The project's home page from the installed metadata (`[project.urls]`), else its package page."""
    from importlib.metadata import PackageNotFoundError, metadata
    try:
        meta = metadata("questc")
    except PackageNotFoundError:
        return FALLBACK_URI
    for entry in meta.get_all("Project-URL") or ():
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "repository", "source", "documentation"):
            return url.strip()
    return next(iter(meta.get_all("Home-page") or ()), FALLBACK_URI)


def _paragraphs(text: str) -> str:
    """Hard-wrapped prose -> one line per paragraph (viewers wrap it themselves)."""
    blocks = [" ".join(line.strip() for line in block.splitlines()) for block in text.strip().split("\n\n")]
    return "\n\n".join(b for b in blocks if b)


def help_markdown(entry: Descriptor) -> str:
    """A code's page (as `questc explain` prints it) in Markdown, for the rule's help."""
    parts = [f"**{entry.code}: {entry.name}** ({entry.severity.value})", entry.summary,
             _paragraphs(entry.explanation),
             "Failing example:", "```\n" + entry.example.failing.strip("\n") + "\n```",
             "Fixed:", "```\n" + entry.example.fixed.strip("\n") + "\n```"]
    if entry.minimum is Severity.ERROR:
        parts.append("This code is always an error: configuration cannot lower it.")
    return "\n\n".join(parts) + "\n"


def rule(entry: Descriptor) -> dict:
    return {
        "id": entry.code,
        "name": entry.name,
        "shortDescription": {"text": entry.summary},
        "fullDescription": {"text": _paragraphs(entry.explanation)},
        "help": {"text": entry.page(), "markdown": help_markdown(entry)},
        "defaultConfiguration": {"level": _LEVELS[entry.severity]},
        "properties": {"tags": [f"{entry.code[:2]}xx"]},
    }


def _uri(path: str) -> str:
    return quote(display_path(path), safe="/")


def _region(span: Span) -> dict:
    return {"startLine": span.line, "startColumn": span.column,
            "endLine": span.end_line, "endColumn": max(span.end_column, span.column)}


def _location(span: Span) -> dict:
    return {"physicalLocation": {"artifactLocation": {"uri": _uri(span.file)}, "region": _region(span)}}


def result(d: Diagnostic, index: dict[str, int]) -> dict:
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
    return out


def sarif_log(results) -> dict:
    """QuestResults in; the SARIF log as a dict out."""
    rules = [rule(entry) for entry in descriptors().values()]
    index = {r["id"]: number for number, r in enumerate(rules)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "questc", "version": tool_version(),
                                "semanticVersion": tool_version(),
                                "informationUri": information_uri(), "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": [result(d, index) for r in results for d in r.diagnostics],
        }],
    }


def render(results) -> str:
    """QuestResults in; the SARIF log as JSON text out."""
    return json.dumps(sarif_log(results), indent=2, ensure_ascii=False) + "\n"
