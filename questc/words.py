"""Counting words in messages: `1 chest`, `2 chests`, `1 copy`, `3 copies`; `is` or `are`.

Every message that puts a number before a noun goes through `plural`, so no message
says "1 gold chests are placed". A noun phrase is pluralised on its last word
(`gold chest` -> `gold chests`, `dead end piece` -> `dead end pieces`, `beastman` ->
`beastmen`); a word with an irregular plural is given it (`plural(n, "foot", "feet")`).
The sheet's templates word counts with the same functions (`plural`, `noun`: Jinja globals
of questc.emit.sheet's environment).
"""

from __future__ import annotations

# English spelling rules enough for the words questc counts (copy -> copies, box -> boxes).
_VOWELS = "aeiou"


def plural_of(noun: str) -> str:
    """The plural of a noun phrase: its last word made plural."""
    head, _, word = noun.rpartition(" ")
    if word.endswith("man"):  # beastman, merriman (never a human's "humans" in a quest's counts)
        word = word[:-3] + "men"
    elif word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        word = word[:-1] + "ies"
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        word += "es"
    else:
        word += "s"
    return f"{head} {word}" if head else word


def noun(count: int, singular: str, plural: str | None = None) -> str:
    """The noun alone, singular for exactly one: noun(2, "row") -> "rows"."""
    return singular if count == 1 else (plural or plural_of(singular))


def plural(count: int, singular: str, plural: str | None = None, *, zero: str | None = None) -> str:
    """A count and its noun: plural(1, "gold chest") -> "1 gold chest", plural(3, "copy") -> "3 copies".
    `zero` words the empty case: plural(0, "gold row", zero="no") -> "no gold rows"."""
    number = zero if count == 0 and zero is not None else f"{count:,}"
    return f"{number} {noun(count, singular, plural)}"


def count_range(value: tuple[int, int] | dict | None) -> str:
    """(low, high) or {'min','max'} in; '4' or '2–5' out (a typographic range, not wording)."""
    if value is None:
        return ""
    if isinstance(value, dict):
        low, high = value["min"], value["max"]
    else:
        low, high = value
    return str(low) if low == high else f"{low}\u2013{high}"


def verb(count: int, singular: str = "is", plural: str = "are") -> str:
    """The verb agreeing with a count: verb(1) -> "is", verb(2, "starts", "start") -> "start"."""
    return singular if count == 1 else plural


def shared_title(titles: list[str]) -> str:
    """The encounters' titles of one quest in; the quest's title out: the words they all begin with
    (`The Ember Reliquary I: ...`, `The Ember Reliquary IIa: ...` -> `The Ember Reliquary`), else the
    first title (fewer than three letters shared say nothing)."""
    if len(titles) == 1:
        return titles[0]
    shared = []
    for column in zip(*(t.split(" ") for t in titles)):
        if len(set(column)) > 1:
            break
        shared.append(column[0])
    name = " ".join(shared).rstrip(" :-,")
    return name if len(name) >= 3 else titles[0]
