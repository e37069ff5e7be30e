"""A quest's name in; the text of a small, valid, commented starter quest out (what `questc new` writes).

The first edition starter uses only base-game components and lints clean (no error,
no warning): two rooms joined by a door, a start area with an active glyph, a guarded
second area, a named monster, a chest chart, a trigger and both sides' victories.
The second edition starter uses only the second edition base game's tiles and tokens:
an entrance, two tiles joined by a door, an end cap and an exit, search, villager and
objective tokens, a lieutenant and both sides' victories; as an encounter pair it is
two files tied by `part_of`, the second a new map with its own victories. Their
comments point at the language's statements, so a writer can grow them into a real
quest. Each is already in the canonical layout (`questc fmt` leaves it unchanged).
"""

from __future__ import annotations

import re

from questc.editions import DEFAULT, Edition
from questc.editions import edition as edition_named
from questc.editions import names as edition_names

_TEMPLATE = '''\
# {comment_title}: a starter quest written by `questc new`.
# Check it with `questc lint {path}`,
# tidy it with `questc fmt {path}`,
# and see what any diagnostic means with `questc explain CODE`.

# The header: what the quest needs and how it starts.
quest {quoted_title} {{
  id {ident}
  edition {edition}  # {editions}
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


# The second edition starter; as encounter 1 of a pair, the header adds `encounter 1`
# and `part_of` ({encounter}).
_SECOND = '''\
# {comment_title}: {what} written by `questc new`.
# Check it with `questc lint {path}`,
# tidy it with `questc fmt {path}`,
# and see what any diagnostic means with `questc explain CODE`.

# The header: the edition, and how the quest starts.
quest {quoted_title} {{
  id {ident}
  edition {edition}  # {editions}
{encounter}  players 2..5  # player counts, overlord included
  author "Your Name"
  intro """
    Splig the goblin king has stolen the chapel bell and hidden it in his
    vault. Take it back, and get out before his archers close the road.
  """
}}

# The map: tiles by their printed code (`questc catalog pieces` draws them), placed
# by their top-left space; x grows east, y south; `turn` turns a tile clockwise.
piece In entrance at 1,-2 turn 180
piece Hall tile_9a at 0,0
piece Cap end_cap at -1,1 turn 90  # closes the hall's west connection
piece Vault tile_8b at 4,0
piece Out exit at 5,-2 turn 180

# A door on the joint of two tiles.
door gate between Hall Vault

# Every tile belongs to one area; the heroes start on the start area's entrance.
# Points may be written relative to a tile: `Hall:0,0` is the hall's top-left space.
area A "Gatehouse" start {{
  pieces In, Hall, Cap
  search at Hall:0,0
  villager at Hall:3,3
  monster zombie at Hall:2,2
}}

area B "The Vault" {{
  pieces Vault, Out
  objective red at Vault:3,3  # the bell
  lieutenant splig at Vault:2,2 facing west
  monster goblin_archer at Vault:1,3 Vault:0,3
  monster goblin_archer master at Vault:3,1
}}

# No conquest in the second edition: each side wins by its own conditions.
victory heroes "Take the bell and run" when objectives 1 and exited
victory overlord "The bell is lost" when round > 8
'''

# Encounter 2 of a pair: a new map; the heroes keep their cards and damage.
_SECOND_2 = '''\
# {comment_title}: encounter 2 of 2 of a {what} written by `questc new`.
# Check both encounters with `questc lint {first_path} {path}`;
# `questc guide` prints them one after the other.

# `part_of` ties this file to encounter 1; each encounter is a map of its own.
quest {quoted_title} {{
  id {ident}
  edition {edition}
  encounter 2
  part_of {whole}
  players 2..5
  intro """
    The bell was a decoy. Splig has fled to the crypt below the chapel
    with the real treasure, and the dead keepers rise to guard him.
  """
}}

piece In entrance at 1,-2 turn 180
piece Nave tile_16a at 0,0
piece WestCap end_cap at -1,1 turn 90
piece SouthCap end_cap at 1,4
piece Crypt tile_14a at 4,0
piece EastCap end_cap at 8,1 turn 270

door crypt_door between Nave Crypt

area A "The Nave" start {{
  pieces In, Nave, WestCap, SouthCap
  search at Nave:1,1
  monster zombie at Nave:2,2
}}

area B "The Crypt" {{
  pieces Crypt, EastCap
  objective red at Crypt:3,3
  lieutenant splig at Crypt:2,2 facing west
  monster cave_spider at Crypt:1,3 Crypt:1,2
}}

victory heroes "Topple the goblin king" when killed splig or objectives 1
victory overlord "The treasure stays lost" when round > 10
'''


def quest_id(name: str) -> str:
    """A name as the quest's `id`: lower case, anything but letters, digits and `_` as `_`."""
    ident = re.sub(r"[^a-z0-9_]", "_", name.lower()).strip("_") or "quest"
    return ident if not ident[0].isdigit() else "q_" + ident


def quest_title(name: str) -> str:
    """`drowned_reliquary` or `drowned-reliquary` -> `Drowned Reliquary`."""
    words = [w for w in re.split(r"[_\-\s]+", name) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or "New Quest"


def starter_quest(name: str, title: str | None = None, path: str | None = None, edition: str = DEFAULT) -> str:
    """The starter quest for `name` (a file stem such as `drowned_reliquary`).

    `title` is the quest's title as the writer wants it ("The Chandler's Cellar"),
    else one made from the name; `path` is the file as the writer will name it on the
    command line (`quests/drowned_reliquary.quest`), for the comment that says how to
    check it, else the file name alone. `edition` names the rules it is played by
    (ValueError for an edition that does not exist or whose rules no starter fits).
    """
    rules = _edition(edition)
    title = _one_line(title, name)
    return _template(rules).format(
        comment_title=title,
        path=path or f"{name}.quest",
        quoted_title=_quoted(title),
        ident=quest_id(name),
        encounter="",
        what=f"a {rules.title.lower()} edition starter quest",
        **_header(rules),
    )


def encounter_pair(
    name: str, title: str | None = None, paths: tuple[str, str] | None = None, edition: str | None = None
) -> tuple[str, str]:
    """A quest of two encounters: the texts of `NAME_1.quest` and `NAME_2.quest`.

    Their ids are `name_1` and `name_2`, both `part_of` the quest's id made from `name`;
    their titles are the title with ": Encounter 1" and ": Encounter 2". `paths` are the
    two files as the writer will name them (for the comments), else the file names alone.
    `edition`: one whose quests come in encounters (default: the first such edition);
    ValueError for one whose quests do not.
    """
    if edition is None:
        found = [rules for rules in map(edition_named, edition_names()) if _in_encounters(rules)]
        if not found:
            raise ValueError("no edition's quests come in encounters")
        rules = found[0]
    else:
        rules = _edition(edition)
        if not _in_encounters(rules):
            others = [n for n in edition_names() if _in_encounters(edition_named(n))]
            raise ValueError(
                f"{rules.name} edition quests have no encounters (`encounter`, `part_of`): "
                f"a quest of two encounters is {' or '.join(others) or 'not'} edition"
            )
    title = _one_line(title, name)
    whole = quest_id(name)
    first_path, second_path = paths or (f"{name}_1.quest", f"{name}_2.quest")
    header = _header(rules)
    what = f"{rules.title.lower()} edition starter quest"
    first = _SECOND.format(
        comment_title=title,
        path=first_path,
        what=f"encounter 1 of 2 of a {what}",
        quoted_title=_quoted(f"{title}: Encounter 1"),
        ident=f"{whole}_1",
        encounter=f"  encounter 1  # the first of two maps\n  part_of {whole}  # the whole quest\n",
        **header,
    )
    second = _SECOND_2.format(
        comment_title=title,
        first_path=first_path,
        path=second_path,
        what=what,
        quoted_title=_quoted(f"{title}: Encounter 2"),
        ident=f"{whole}_2",
        whole=whole,
        **header,
    )
    return first, second


def _edition(name: str) -> Edition:
    try:
        return edition_named(name)
    except ValueError:
        raise ValueError(f"no edition {name!r}: the editions are {', '.join(edition_names())}") from None


def _template(rules: Edition) -> str:
    """The starter written for what an edition's quests play by: glyphs, conquest and chests (the
    first edition's base game), or an entrance, tokens, an exit and lieutenants (the second's)."""
    if all(rules.has(rule) for rule in ("glyph start", "conquest", "chests")):
        return _TEMPLATE
    if all(rules.has(rule) for rule in ("entrance start", "tokens", "objectives", "exit", "lieutenants")):
        return _SECOND
    raise ValueError(f"questc has no starter quest for {rules.name} edition quests")


def _in_encounters(rules: Edition) -> bool:
    """Do the edition's quests come in encounters, and is there a starter for them?"""
    if not {"encounter", "part_of"} <= rules.header_fields:
        return False
    try:
        return _template(rules) is _SECOND
    except ValueError:
        return False


def _header(rules: Edition) -> dict[str, str]:
    """The header's `edition` line: its name, and a comment naming the others."""
    others = [f"{name} (the default)" if name == DEFAULT else name for name in edition_names()]
    return {"edition": rules.name, "editions": "the rules it is played by: " + " or ".join(others)}


def _one_line(title: str | None, name: str) -> str:
    """The title as the writer gave it (else one made from the name), on one line."""
    title = title if title and title.strip() else quest_title(name)
    return " ".join(title.split())  # a title never holds a line break


def _quoted(title: str) -> str:
    from questc.fmt.printer import quote_short

    return quote_short(title)
