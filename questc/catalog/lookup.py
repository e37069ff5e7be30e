"""Did-you-mean: a misspelt catalog name and the known names in, the closest known name (or None) out."""
from __future__ import annotations

import re
from typing import Iterable

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


def closest(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """A name and the known names in, the best close match out (None if nothing is close).

    A match after folding case and separators wins outright; otherwise difflib's
    ratio picks the nearest, compared on the folded forms so case does not count.
    """
    folded: dict[str, str] = {}
    for candidate in sorted(known):  # sorted: equal scores resolve the same way every run
        folded.setdefault(normalise(candidate), candidate)
    key = normalise(name)
    if not key or not folded:
        return None
    if key in folded and folded[key] != name:
        return folded[key]
    # Imported here, not at the top: only a misspelt name gets this far (about 1 ms to import).
    import difflib

    matches = difflib.get_close_matches(key, list(folded), n=1, cutoff=cutoff)
    if matches and folded[matches[0]] != name:
        return folded[matches[0]]
    return None
