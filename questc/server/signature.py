"""Signature help: the form of the statement being typed, its current part marked.

The statement's keyword (the first word after the line's start, a `;` or a `{`) names its
forms (questc.server.keywords); the words typed after it say which part comes next. Of
several forms (`door ID between ...` and `door ID at ...`), the one whose fixed words agree
with what is typed is active.
"""

from __future__ import annotations

import re

from lsprotocol import types

from questc.server.document import QuestDocument

_PART = re.compile(r"\[[^\]]*\]|\S+")


def _parts(form: str) -> list[tuple[int, int]]:
    """The (start, end) of each part of a form after its keyword, in the form's text."""
    found = [(m.start(), m.end()) for m in _PART.finditer(form.split(" (")[0])]
    return found[1:]


def _fits(form: str, typed: list[str]) -> bool:
    """Do the form's fixed words (lower-case ones) agree with the words typed at their places?"""
    words = form.split(" (")[0].split()
    for place, word in enumerate(typed):
        if place >= len(words):
            return words[-1].endswith("...") or words[-1].endswith("...]")
        expected = words[place].strip("[]")
        if expected.islower() and "|" not in expected and expected.isidentifier() and word != expected:
            return False
    return True


def signature_help(document: QuestDocument, position: types.Position) -> types.SignatureHelp | None:
    from questc.server.completion import _statement_start
    from questc.server.keywords import KEYWORDS
    from questc.server.text import place

    lines = document.lines()
    text = document.text
    offset = lines.offset(position)
    line_start = text.rfind("\n", 0, offset) + 1
    if place(text[line_start:offset]) != "code":
        return None
    start = _statement_start(text, offset)
    statement = text[start:offset]
    words = statement.split()
    if not words or words[0] not in KEYWORDS:
        return None
    entry = KEYWORDS[words[0]]
    forms = [f for f in entry.forms if f.split()[0] == entry.word] or list(entry.forms)
    typed = words if statement[-1:].isspace() else words[:-1]  # the words finished
    active_form = next((i for i, f in enumerate(forms) if _fits(f, words)), 0)
    signatures = []
    for form in forms:
        parts = _parts(form)
        signatures.append(
            types.SignatureInformation(
                label=form, parameters=[types.ParameterInformation(label=(a, b)) for a, b in parts]
            )
        )
    parts = _parts(forms[active_form])
    if not parts:
        return None
    active = min(max(len(typed) - 1, 0), len(parts) - 1)
    return types.SignatureHelp(signatures=signatures, active_signature=active_form, active_parameter=active)
