"""Text in; Typst out: quest text escaped as Typst markup (`markup`) or as a string literal (`string`).

The sheet's templates write Typst markup themselves; every value they insert goes through
`markup`, so nothing a writer types (`#`, `*`, `[`, `//`, `$`, a URL, `1.` at the start of a
line...) can change the layout: each ASCII punctuation character is escaped with a backslash
(Typst reads `\\c` as the character c), line breaks and control characters are written as
`\\u{...}`, and spaces that markup would fold (runs, and spaces at either end) as `\\u{20}`.
The PDF is the same as with the text given as a string literal, byte for byte.
"""

from __future__ import annotations

import re
import unicodedata

# ASCII punctuation Typst's markup reads (or may read in some position): all of it, escaped.
_PUNCTUATION = frozenset("\\#*_`$<>@[]=-+/~'\".:;,!?()%&|^{}")
# Spaces markup would fold: a run of two or more, or one at either end of the text.
_FOLDED = re.compile(r"^ +| +$| {2,}")


def _char(c: str) -> str:
    if c in _PUNCTUATION:
        return "\\" + c
    if c == "\t" or unicodedata.category(c) in ("Cc", "Zl", "Zp") or c == "\x85":
        return f"\\u{{{ord(c):x}}}"
    return c


def markup(text: str) -> str:
    """Text in; Typst markup that prints exactly that text out."""
    return _FOLDED.sub(lambda m: "\\u{20}" * len(m.group(0)), "".join(_char(c) for c in text))


def string(text: str) -> str:
    """Text in; a Typst string literal of it out (for code: a function's argument, a file's bytes)."""
    return (
        '"'
        + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
        + '"'
    )
