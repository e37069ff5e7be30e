"""Did-you-mean: a misspelt name and the known names in, the closest known name (or None) out.

Three kinds of match, best first: the same name but for case and separators
(`Hell-Hound` for `hell_hound`), the same name but for characters that look alike
(`Cl` for `C1`, `R0` for `RO`), and difflib's nearest spelling (`beastmen` for
`beastman`). Callers use the kind to say how sure the guess is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from questc.diagnostics.core import Applicability, Edit, Fix, Span
from questc.records import record

# What each lookup kind is called in a message ("unknown piece type `room_5x5`").
KIND_WORDS = {
    "piece": "piece type",
    "monster": "monster",
    "obstacle": "obstacle",
    "trap": "trap",
    "treasure": "treasure",
    "marker": "marker",
    "card": "overlord card",
    "colour": "rune colour",
    "set": "set",
    "dark_glyph": "dark glyph",
    "chest_card": "chest card",
}


def normalise(name: str) -> str:
    """Fold case and spelling noise: `Hell-Hound`, `hell hound` and `hell_hound` agree."""
    return re.sub(r"[\s_\-]+", "_", name.strip()).casefold()


# Characters easily taken for one another in a name, each mapped to one representative:
# the letters l and I and the digit 1, the letter O and the digit 0, S and 5, Z and 2, B and 8.
_LOOK_ALIKE = {
    "l": "1",
    "I": "1",
    "i": "1",
    "|": "1",
    "O": "0",
    "o": "0",
    "S": "5",
    "s": "5",
    "Z": "2",
    "z": "2",
    "B": "8",
}
_CHARACTER_WORDS = {
    "0": "the digit 0",
    "1": "the digit 1",
    "2": "the digit 2",
    "5": "the digit 5",
    "8": "the digit 8",
    "|": "the bar |",
}


def look_alike(name: str) -> str:
    """A name's skeleton: look-alike characters made one, then case and separators folded."""
    return normalise("".join(_LOOK_ALIKE.get(ch, ch) for ch in name))


def character_word(ch: str) -> str:
    """`the digit 1`, `the letter l`, `the capital letter I`: which character a look-alike is."""
    if ch in _CHARACTER_WORDS:
        return _CHARACTER_WORDS[ch]
    if ch.isalpha():
        return f"the capital letter {ch}" if ch.isupper() else f"the letter {ch}"
    return f"`{ch}`"


@record
class Match:
    """A did-you-mean: the known name, and how it was found (`case`: the same but for case and
    separators, and the only such name; `look-alike`: the same but for characters that look
    alike, and the only such name; `spelling`: difflib's nearest)."""

    name: str
    kind: Literal["case", "look-alike", "spelling"]

    def help(self, written: str) -> str:
        """`did you mean `C1`?`, saying which characters differ for a look-alike."""
        text = f"did you mean `{self.name}`"
        if self.kind == "look-alike" and len(written) == len(self.name):
            pairs = dict.fromkeys((a, b) for a, b in zip(self.name, written) if a != b)
            said = ", ".join(f"{character_word(a)}, not {character_word(b)}" for a, b in pairs)
            if said:
                text += f" ({said})"
        return text + "?"


def closest_match(name: str, known: Iterable[str], cutoff: float = 0.6) -> Match | None:
    """A name and the known names in, the best close match and its kind out (None if nothing is close)."""
    candidates = sorted(set(known))  # sorted: equal scores resolve the same way every run
    if not candidates or not normalise(name):
        return None
    key = normalise(name)
    same = [c for c in candidates if normalise(c) == key and c != name]
    if same and name not in candidates:
        return Match(same[0], "case" if len(same) == 1 else "spelling")
    skeleton = look_alike(name)
    alike = [c for c in candidates if look_alike(c) == skeleton and c != name]
    if alike and name not in candidates:
        return Match(alike[0], "look-alike" if len(alike) == 1 else "spelling")
    folded: dict[str, str] = {}
    for candidate in candidates:
        folded.setdefault(normalise(candidate), candidate)
    # Imported here, not at the top: only a misspelt name gets this far (about 1 ms to import).
    import difflib

    matches = difflib.get_close_matches(key, list(folded), n=1, cutoff=cutoff)
    if matches and folded[matches[0]] != name:
        return Match(folded[matches[0]], "spelling")
    return None


def closest(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """A name and the known names in, the best close match out (None if nothing is close).

    A match after folding case and separators wins outright, then one after making
    look-alike characters one; otherwise difflib's ratio picks the nearest, compared
    on the folded forms so case does not count.
    """
    match = closest_match(name, known, cutoff)
    return match.name if match else None


def rename_fix(span: Span, written: str, match: Match, identifier: bool = False) -> tuple[Fix, ...]:
    """The fix that writes the matched name over the unknown one at `span`.

    Safe only for a catalog name that differs from exactly one known name in case and
    separators: catalog names are fixed, so `Hell-Hound` can only mean `hell_hound`.
    Every other match is a guess (unsafe), and so is any rename of an `identifier`:
    `r1` may be a piece the writer has yet to define rather than `R1`.
    """
    safe = match.kind == "case" and not identifier
    return (
        Fix(
            f"replace `{written}` with `{match.name}`",
            (Edit(span, match.name),),
            Applicability.SAFE if safe else Applicability.UNSAFE,
        ),
    )
