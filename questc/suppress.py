"""Inline suppressions: a quest's comments and diagnostics in; the diagnostics left, plus Q601-Q604, out.

    # questc: ignore[Q305]            the next line holding a statement (or, trailing, its own line)
    # questc: ignore[Q305, Q306]      several codes
    # questc: ignore-file[Q503]       the whole file

The runner (questc.api) applies suppressions before the select/ignore/severity
policy, so a suppression counts as used whenever the check fired, whatever the
configuration then does with the code. Checks never see suppressions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from questc.diagnostics.core import Applicability, Diagnostic, Edit, Fix, Severity, Span
from questc.rules import descriptor, descriptors
from questc.rules.suppressions.malformed_suppression import Q604
from questc.rules.suppressions.unknown_code import Q602
from questc.rules.suppressions.unsuppressible_code import Q603
from questc.rules.suppressions.unused_suppression import Q601

# `questc:` after the `#`, then the instruction. Anything else starting `questc:` is Q604.
_MARKER = re.compile(r"#\s*questc\s*:", re.I)
# Free text may follow the brackets: `# questc: ignore[Q305] the alcove is meant to be seen`.
_DIRECTIVE = re.compile(r"#\s*questc\s*:\s*(?P<kind>ignore-file|ignore)\s*\[(?P<codes>[^\]]*)\]")
CODE = re.compile(r"Q[0-9]{3}")
PREFIX = re.compile(r"Q[0-9]{0,3}")


@dataclass
class Suppression:
    """One `ignore`/`ignore-file` comment: where it is, what it covers, which of its codes were used."""

    span: Span  # the whole comment
    file_wide: bool
    codes: dict[str, Span]  # code -> where it is written in the comment
    target_line: int | None = None  # the line an `ignore[...]` covers
    used: set[str] = field(default_factory=set)
    items: tuple[tuple[str, Span], ...] = ()  # every item between the brackets as written, in order
    brackets: Span | None = None  # the text between `[` and `]`


def known_prefix(prefix: str) -> bool:
    """True when `prefix` (`Q3`, `Q305`) starts at least one code of this installation."""
    return any(code.startswith(prefix) for code in descriptors())


def parse_suppressions(
    source: str, comments: Iterable[tuple[Span, str]], file: str
) -> tuple[list[Suppression], list[Diagnostic]]:
    """The comments of one quest ((Span, text) pairs) in; its suppressions and the problems with them out.

    Problems: Q604 for a `questc:` comment that is not a suppression, Q602 for a name
    that is not a known code, Q603 for a code that cannot be suppressed. Codes with a
    problem are left out of the suppression.
    """
    lines = source.split("\n")
    suppressions: list[Suppression] = []
    problems: list[Diagnostic] = []
    for span, text in comments:
        text = text.rstrip()
        if not _MARKER.match(text):
            continue
        match = _DIRECTIVE.match(text)
        if match is None:
            problems.append(Q604.at(span))
            continue
        codes: dict[str, Span] = {}
        items: list[tuple[str, Span]] = []
        body_start = match.start("codes")
        for item in re.finditer(r"[^,]+", match.group("codes")):
            written = item.group().strip()
            if not written:
                continue
            offset = body_start + item.start() + (len(item.group()) - len(item.group().lstrip()))
            where = Span(
                file,
                span.line,
                span.column + offset,
                span.line,
                span.column + offset + len(written),
                span.start + offset,
                span.start + offset + len(written),
            )
            items.append((written, where))
            code = written.upper()
            entry = descriptor(code) if CODE.fullmatch(code) else None
            if entry is None:
                problems.append(Q602.at(where, code=written, **_unknown(written)))
            elif entry.minimum is Severity.ERROR:
                kind = "syntax" if code.startswith("Q0") else "reference"
                problems.append(Q603.at(where, code=code, kind=kind))
            else:
                codes.setdefault(code, where)
        if not match.group("codes").strip():
            problems.append(Q604.at(span, help="name the codes to suppress: `# questc: ignore[Q305]`"))
            continue
        if not codes:
            continue  # every code was reported above; nothing is left to suppress
        body_end = match.end("codes")
        brackets = Span(
            file,
            span.line,
            span.column + body_start,
            span.line,
            span.column + body_end,
            span.start + body_start,
            span.start + body_end,
        )
        suppression = Suppression(
            span, match.group("kind") == "ignore-file", codes, items=tuple(items), brackets=brackets
        )
        if not suppression.file_wide:
            suppression.target_line = _target_line(lines, span)
        suppressions.append(suppression)
    return suppressions, problems


class _Unknown(TypedDict):
    """Q602's fields for a code questc does not know."""

    problem: str
    help_text: str


def _unknown(written: str) -> _Unknown:
    if not CODE.fullmatch(written.upper()):
        return {
            "problem": "is not a diagnostic code",
            "help_text": "codes are `Q` and three digits, like `Q305`; `questc explain all` lists them",
        }
    return {
        "problem": "is not a code questc reports",
        "help_text": "check the number; `questc explain all` lists the codes",
    }


def _target_line(lines: list[str], span: Span) -> int | None:
    """The line an `ignore[...]` comment covers.

    A trailing comment covers its own line. A comment on a line of its own covers the
    next line holding code: comment lines and blank lines between are skipped, so a
    suppression can sit above the statement's own explanatory comment.
    """
    before = lines[span.line - 1][: span.column - 1] if span.line <= len(lines) else ""
    if before.strip():
        return span.line
    for number in range(span.line + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            return number
    return None


def apply_suppressions(
    diagnostics: list[Diagnostic], source: str, comments: Iterable[tuple[Span, str]], file: str, complete: bool = True
) -> list[Diagnostic]:
    """A quest's diagnostics (before the policy), its source and comments in; the diagnostics out.

    Suppressed diagnostics are left out; Q601 (unused suppression) is added for each
    suppression code that covered nothing, but only when `complete` (every check
    ran: otherwise the diagnostic it expects may simply not have been looked for);
    Q602-Q604 for malformed suppressions. Syntax and reference errors are never
    suppressed. Q6xx diagnostics may themselves be covered by an `ignore-file`.
    """
    if source.startswith("\ufeff"):
        source = source[1:]  # the parser's spans count from after the byte-order mark
    suppressions, problems = parse_suppressions(source, comments, file)
    if not suppressions and not problems:
        return list(diagnostics)
    kept = [d for d in diagnostics if not _suppressed(d, suppressions, file)]
    if complete:
        for s in suppressions:
            unused = [code for code in s.codes if code not in s.used]
            if unused:
                listed = ", ".join(f"`{c}`" for c in unused)
                what = "the comment" if len(unused) == len(s.codes) else f"{listed} from the comment"
                problems.append(
                    Q601.at(
                        s.codes[unused[0]] if len(unused) < len(s.codes) else s.span,
                        codes=listed,
                        what=what,
                        fixes=_removal(s, set(unused), source, file),
                    )
                )
    # A file may say that it knows about its own suppression problems.
    problems = [d for d in problems if not _suppressed(d, [s for s in suppressions if s.file_wide], file)]
    return kept + problems


def _removal(s: Suppression, unused: set[str], source: str, file: str) -> tuple[Fix, ...]:
    """The safe fix for a Q601: take the unused codes out of the brackets, or, when nothing else is
    left in them, the whole comment (with its line when it stands alone, else with the spaces before it).

    Safe: a suppression that covers nothing changes nothing when it goes.
    """
    from questc.diagnostics.edits import SourceText

    kept = [written for written, _ in s.items if written.upper() not in unused]
    listed = ", ".join(f"`{c}`" for c in sorted(unused))
    if kept and s.brackets is not None:
        return (Fix(f"remove {listed} from the suppression", (Edit(s.brackets, ", ".join(kept)),), Applicability.SAFE),)
    text = SourceText(source, file)
    edit = text.delete_lines(s.span) if text.alone_on_line(s.span) else text.delete_trailing(s.span)
    return (Fix("remove the unused suppression", (edit,), Applicability.SAFE),)


def _suppressed(d: Diagnostic, suppressions: list[Suppression], file: str) -> bool:
    entry = descriptor(d.code)
    if entry is not None and entry.minimum is Severity.ERROR:
        return False
    if d.span.file != file:
        return False  # a diagnostic in a content pack, not in this quest's text
    hit = False
    for s in suppressions:
        if d.code in s.codes and (s.file_wide or s.target_line == d.span.line):
            s.used.add(d.code)
            hit = True  # go on: every suppression that covers it counts as used
    return hit
