"""Diagnostics -> how many of each code (`questc lint --statistics`), most frequent first.

    3  Q305  warning  area-visible-from-start
    1  Q101  error    unknown-catalog-name

A code a configuration re-graded is shown with its graver severity in this run.
"""

from __future__ import annotations

import json

from questc.diagnostics.core import Diagnostic
from questc.emit.report import JSON


def count_by_code(diagnostics: list[Diagnostic]) -> list[JSON]:
    """[{code, name, severity, count}], by count (highest first), then code."""
    from questc.rules import descriptor

    table: dict[str, JSON] = {}
    for d in diagnostics:
        entry = table.get(d.code)
        if entry is None:
            known = descriptor(d.code)
            entry = table[d.code] = {
                "code": d.code,
                "name": known.name if known else "",
                "severity": d.severity,
                "count": 0,
            }
        entry["count"] += 1
        if d.severity.rank > entry["severity"].rank:
            entry["severity"] = d.severity
    rows = sorted(table.values(), key=lambda e: (-e["count"], e["code"]))
    return [{**row, "severity": row["severity"].value} for row in rows]


def render_text(diagnostics: list[Diagnostic]) -> str:
    rows = count_by_code(diagnostics)
    if not rows:
        return ""
    width = max(len(str(row["count"])) for row in rows)
    return (
        "".join(
            f"{str(row['count']).rjust(width)}  {row['code']}  {row['severity']:<7}  {row['name']}".rstrip() + "\n"
            for row in rows
        )
        + "\n"
    )


def render_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps(count_by_code(diagnostics), indent=2, ensure_ascii=False) + "\n"
