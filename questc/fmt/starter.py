"""A quest's name in; the text of a small, valid, commented starter quest out (what `questc new` writes).

The starter uses only base-game components and lints clean (no error, no warning):
two rooms joined by a door, a start area with an active glyph, a guarded second area,
a named monster, a chest chart, a trigger and both sides' victories. Its comments
point at the language's statements, so a writer can grow it into a real quest. It is
already in the canonical layout (`questc fmt` leaves it unchanged).
"""
from __future__ import annotations

import re

_TEMPLATE = '''\
# {comment_title}: a starter quest written by `questc new`.
# Check it with `questc lint {path}`,
# tidy it with `questc fmt {path}`,
# and see what any diagnostic means with `questc explain CODE`.

# The header: what the quest needs and how it starts.
quest {quoted_title} {{
  id {ident}
  edition first  # first (default) or second
  expansions base  # the component sets the quest uses
  players 2..5  # player counts, overlord included
  conquest 5  # the heroes' starting conquest tokens
  treachery event 3, trap 3, monster 4  # the overlord's treachery budget
  author "Your Name"
  intro """
    Beyond the old gate, a beastman captain guards what he stole.
    Find him and take it back.
  """
}}

# The map: pieces from the catalog (`questc catalog pieces`), placed by their
# top-left corner; x grows east, y south.
piece R1 room_4x4 at 0,0
piece R2 room_4x4 at 4,0

# A door on the joint of the two rooms; add `rune red` to lock it with a runekey.
door gate between R1 R2

# Every piece belongs to one area; the heroes enter on the start area's active glyph.
area A "Gatehouse" start {{
  pieces R1
  glyph at 0,0 active
  chest copper at 3,3
}}

# Revealed when a hero first sees into it (here: once the gate is opened).
area B "Guard Room" {{
  pieces R2
  read """
    A beastman in a dented helmet looks up from his dice.
  """
  monster skeleton at 5,1 5,2
  named captain at 6,2
  chest silver at 7,3
}}

# A named monster: the master figure of its type, with changes.
named captain "The Captain" beastman {{
  wounds +4
  conquest 2  # gained by the heroes when he dies
}}

# What each chest marker holds, by type and number.
chests {{
  copper 1: coins 50
  silver 1: silver, conquest 1
}}

on reveal B {{
  threat 2
}}

victory heroes "Defeat the Captain" when killed captain
victory overlord when conquest 0
'''


def quest_id(name: str) -> str:
    """A name as the quest's `id`: lower case, anything but letters, digits and `_` as `_`."""
    ident = re.sub(r"[^a-z0-9_]", "_", name.lower()).strip("_") or "quest"
    return ident if not ident[0].isdigit() else "q_" + ident


def quest_title(name: str) -> str:
    """`drowned_reliquary` or `drowned-reliquary` -> `Drowned Reliquary`."""
    words = [w for w in re.split(r"[_\-\s]+", name) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or "New Quest"


def starter_quest(name: str, title: str | None = None, path: str | None = None) -> str:
    """The starter quest for `name` (a file stem such as `drowned_reliquary`).

    `title` is the quest's title as the writer wants it ("The Chandler's Cellar"),
    else one made from the name; `path` is the file as the writer will name it on the
    command line (`quests/drowned_reliquary.quest`), for the comment that says how to
    check it, else the file name alone.
    """
    from questc.fmt.printer import quote_short

    title = title if title and title.strip() else quest_title(name)
    title = " ".join(title.split())   # one line: a title never holds a line break
    return _TEMPLATE.format(comment_title=title, path=path or f"{name}.quest",
                            quoted_title=quote_short(title), ident=quest_id(name))
