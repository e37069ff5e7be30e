"""A fingerprint per diagnostic that survives unrelated edits (SARIF partialFingerprints, GitLab).

CI systems match a run's findings with the previous run's by fingerprint, to show
what is new and what was fixed. A fingerprint must therefore not change when lines
are added or removed elsewhere in the file: it hashes the file's name, the code, the
message (numbers in it made alike, so "15 cells" and "16 cells" stay one finding), the
source text under the diagnostic and the text of its line (spaces collapsed), but no
line or column. When two findings would still hash alike, the second and later
are hashed again with their rank in the file, so each fingerprint is unique in the
report; every fingerprint is 32 hexadecimal digits.
"""

from __future__ import annotations

import hashlib
import re

from questc.emit.report import Checked, display_path

_DIGITS = re.compile(r"[0-9]+")
_SPACE = re.compile(r"\s+")


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _key(d, lines: list[str], source: str) -> str:
    span = d.span
    line = lines[span.line - 1] if 1 <= span.line <= len(lines) else ""
    under = source[span.start : span.end] if 0 <= span.start <= span.end <= len(source) else ""
    parts = (
        display_path(span.file),
        d.code,
        _DIGITS.sub("0", d.message),
        _SPACE.sub(" ", under).strip(),
        _SPACE.sub(" ", line).strip(),
    )
    return _hash("\0".join(parts))


def fingerprints(result: Checked) -> list[str]:
    """One fingerprint for each of `result.diagnostics`, in their order."""
    source = result.source or ""
    lines = source.split("\n")
    seen: dict[str, int] = {}
    out = []
    for d in result.diagnostics:
        key = _key(d, lines, source)
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(key if n == 0 else _hash(f"{key}:{n}"))
    return out
