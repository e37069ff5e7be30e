"""Q4xx: components and budgets (what the owned boxes hold, and the overlord's treachery)."""
from questc.diagnostics.core import Descriptor, Example, Severity

E, I = Severity.ERROR, Severity.INFO

_WOD = 'quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n  treachery event 4, trap 3, monster 3\n}\n'
_BASE = 'quest "Q" {\n  conquest 3\n}\n'
_HALL = 'piece R1 room_6x6 at 0,0\narea A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
_CHIEF = '  named chief at 5,5\n}\nnamed chief "Chief" beastman { conquest 1 }\n'
_WIN = 'victory heroes when killed chief\n'


def _quest(head: str, area_lines: str = "", tail: str = "") -> str:
    """An otherwise valid one-room quest with `area_lines` in its start area and `tail` after it."""
    return head + _HALL + area_lines + _CHIEF + tail + _WIN


Q401 = Descriptor(
    code="Q401", name="treachery-over-budget", severity=E,
    template="the deck plan spends {spent} {colour} treachery, but the quest's budget gives {budget}",
    label_template="this brings the {colour} spending to {spent}",
    help_template="take {over} {colour} treachery out of the plan, or raise the quest's {colour} budget to {spent} "
                  "(header `treachery`)",
    summary="An overlord deck plan spends more treachery of a colour than the quest's budget gives.",
    explanation="""
With The Well of Darkness, a quest gives the overlord treachery in three colours:
event (green), trap (purple) and monster (red). Each card with a treachery cost that
he swaps into his deck is paid in its own colour, and a dark glyph (Altar of Despair)
costs 2 of its colour. Points of one colour never pay for another. A plan (the
quest's `overlord { }` block, or a YAML plan checked with `questc deck`) that spends
more of a colour than the header's `treachery` gives cannot be played.

The diagnostic points at the card or dark glyph that first takes the spending over
the budget, with the other spending of that colour and the budget as labels.
""",
    example=Example(
        failing=_quest(_WOD.replace("trap 3", "trap 2"), tail='overlord {\n  card "Rolling Stone"\n}\n'),
        fixed=_quest(_WOD, tail='overlord {\n  card "Rolling Stone"\n}\n')),
    fields=("spent", "colour", "budget", "over"),
)

Q402 = Descriptor(
    code="Q402", name="card-not-for-the-plan", severity=E,
    template="`{name}` cannot go in the deck plan: {problem}",
    label_template="{label}",
    summary="A deck plan names a card that has no treachery cost, or more copies than the owned sets hold.",
    explanation="""
Only cards with a treachery cost can be swapped into the overlord's deck; the base
deck's cards are there already. A card whose cost the rule books do not state cannot
be priced either: the catalog never guesses one. And a plan may take no more copies
of a card (or of a dark glyph) than the sets the player owns hold: the quest's
`expansions`, or the sets given with `--expansions` or the configuration.

When the catalog's number of copies is an estimate, the copies problem is a warning
instead of an error.
""",
    example=Example(
        failing=_quest(_WOD, tail='overlord {\n  card "Kobold Swarm"\n}\n'),
        fixed=_quest(_WOD, tail='overlord {\n  card "Danger"\n}\n')),
    fields=("name", "problem", "label"),
)

Q403 = Descriptor(
    code="Q403", name="too-many-figures", severity=E,
    template="{count} {rank} {monster} figures are on the map with {players} players, "
             "but the sets owned ({sets}) hold {owned}",
    label_template="one figure too many",
    help_template="remove {extra} of them, use another monster type, or keep some for fewer players "
                  "with `players a..b`",
    summary="More figures of a monster type (normal or master) than the owned sets hold.",
    explanation="""
The overlord can only place the figures the box holds. Normal (tan) and master (red)
figures are counted apart; a named monster stands on a master figure.

Every area may be revealed while monsters of earlier areas still stand, so the
figures of the whole quest are counted together, for each player count the quest
supports: a figure written with `players a..b` counts only for those player counts.
The worst player count is reported. Monsters that effects `spawn` are not counted:
the overlord may take a figure off the board to place it again.

The rule books count the figures of The Well of Darkness; the base game's 39 normal
and 21 master figures are split over its twelve types by estimate. A count built on a
rule book's number is an error; one built on an estimate is a warning.
""",
    example=Example(
        failing=_quest(_WOD, "  monster golem at 2,2 4,2 2,4\n"),
        fixed=_quest(_WOD, "  monster golem at 2,2 4,2\n  monster kobold at 2,4\n")),
    fields=("count", "rank", "monster", "players", "sets", "owned", "extra"),
)

Q404 = Descriptor(
    code="Q404", name="too-many-map-pieces", severity=E,
    template="the map uses {count} {kind} pieces, but the sets owned ({sets}) hold {owned}",
    label_template="one {kind} piece too many",
    help_template="replace {extra} {kind} pieces with pieces of another kind, or list a set that brings more "
                  "in `expansions`",
    summary="More map pieces of a kind than the owned sets hold.",
    explanation="""
The rule books count map pieces by kind, not by shape: the base game holds 10 rooms,
25 corridors, 6 intersections and 20 dead ends, and The Well of Darkness adds 1 room,
3 corridors, 4 intersections and 2 dead ends. A map that needs more pieces of a kind
than the owned sets hold cannot be built on the table.
""",
    example=Example(
        failing=_BASE + "".join(f"piece R{i} room_4x4 at {4 * i},0\n" for i in range(1, 12))
        + 'area A "Hall" start {\n  pieces ' + ", ".join(f"R{i}" for i in range(1, 12))
        + "\n  glyph at 4,0 active\n}\nvictory heroes when revealed A\n",
        fixed=_BASE + "".join(f"piece R{i} room_4x4 at {4 * i},0\n" for i in range(1, 11))
        + 'area A "Hall" start {\n  pieces ' + ", ".join(f"R{i}" for i in range(1, 11))
        + "\n  glyph at 4,0 active\n}\nvictory heroes when revealed A\n"),
    fields=("count", "kind", "sets", "owned", "extra"),
)

Q405 = Descriptor(
    code="Q405", name="too-many-markers", severity=E,
    template="the quest places {count} {component}, but the sets owned ({sets}) hold {owned}",
    label_template="one too many",
    help_template="remove {extra} of them, or list a set that brings more in `expansions`",
    summary="More doors, rune doors, glyphs, encounter markers, staircases, chests, relics or treasures "
            "than the owned sets hold.",
    explanation="""
The base game holds 7 doors and 3 rune doors (one red, one yellow, one blue), 10
glyphs, 10 encounter markers, 6 staircase markers, 8 chest markers, 4 relic markers
and 9 each of healing potion, vitality potion and money markers; The Well of Darkness
adds 2 staircase markers, 6 relic markers, 11 money markers and 9 power potions.

A `stairs` statement places a pair of staircase markers, so it counts 2. Rune doors
are also counted by colour, and so are runekeys (the books do not count runekeys: one
per rune door is an estimate, so too many runekeys is a warning). Markers whose
number the books do not give are not checked.
""",
    example=Example(
        failing=_quest(_BASE, "  relic shield at 1,0\n  relic sword at 2,0\n  relic bow at 3,0\n  relic axe at 4,0\n"
                              "  relic helm at 5,0\n"),
        fixed=_quest(_BASE, "  relic shield at 1,0\n  relic sword at 2,0\n  relic bow at 3,0\n  relic axe at 4,0\n")),
    fields=("count", "component", "sets", "owned", "extra"),
)

Q406 = Descriptor(
    code="Q406", name="unusual-treachery-total", severity=I,
    template="the treachery budget totals {total}, outside the published quests' range of 9 to 12",
    label_template="{total} in all",
    help_template="the nine base quests give 9 to 12 (Into the Dark: event 4, trap 4, monster 4); "
                  "keep {total} only if the quest is meant to be {harder}",
    summary="The treachery budget's total is outside the range of the published quests (9 to 12).",
    explanation="""
The Well of Darkness gives budgets for the nine base-game quests: between 9 (Spoiled
Brat: 3/3/3) and 12 (The Black Blade: 3/5/4; Into the Dark: 4/4/4) points in all. A
budget outside that range is allowed; this note only says the quest will play harder
or easier for the heroes than the published ones.
""",
    example=Example(
        failing=_quest(_WOD.replace("treachery event 4, trap 3, monster 3", "treachery event 8, trap 8, monster 8")),
        fixed=_quest(_WOD)),
    fields=("total", "harder"),
)

Q407 = Descriptor(
    code="Q407", name="unspent-treachery", severity=I,
    template="the deck plan leaves {left} treachery unspent ({detail}): {cards}",
    label_template="{left} left over",
    help_template="every 2 points left over, of any colour, give the overlord one extra card at the start "
                  "(he starts with 3 and may hold at most 8)",
    summary="Unspent treachery in a deck plan, and the extra starting cards it buys.",
    explanation="""
Treachery the overlord does not spend is not lost: every 2 points left over, of any
colour together, give him one more overlord card at the start of the quest. He starts
with 3 cards and may hold at most 8, so at most 5 extra cards can be bought this way.
""",
    example=Example(
        failing=_quest(_WOD, tail='overlord {\n  card "Danger"\n}\n'),
        fixed=_quest('quest "Q" {\n  expansions base, well_of_darkness, altar_of_despair\n  conquest 3\n'
                     '  treachery event 1, trap 3, monster 2\n}\n', "  glyph at 3,0\n",
                     tail='overlord {\n  card "Danger"\n  card "Rolling Stone"\n  dark_glyph summoning\n}\n')),
    fields=("left", "detail", "cards"),
)

Q408 = Descriptor(
    code="Q408", name="treachery-not-in-this-quest", severity=E,
    template="{problem}",
    label_template="{label}",
    summary="Treachery given in a `second` edition quest, or a deck plan for a quest with no treachery.",
    explanation="""
Treachery is a first edition rule (The Well of Darkness and later): second edition
quests have no treachery budget. And a quest whose header gives no `treachery` lets
the overlord play the base deck only, so a deck plan for it has nothing to spend.
""",
    example=Example(
        failing=_quest(_WOD.replace("  treachery event 4, trap 3, monster 3\n", ""),
                       tail='overlord {\n  card "Danger"\n}\n'),
        fixed=_quest(_WOD, tail='overlord {\n  card "Danger"\n}\n')),
    fields=("problem", "label"),
)

_AOD = ('quest "Q" {\n  expansions base, well_of_darkness, altar_of_despair\n  conquest 3\n'
        '  treachery event 4, trap 3, monster 3\n}\n')

Q409 = Descriptor(
    code="Q409", name="dark-glyphs-without-glyphs", severity=E,
    template="the deck plan lays {planned}, but {inactive} of the quest's glyphs start inactive",
    label_template="no glyph left to hide this dark glyph",
    help_template="dark glyphs are mixed in with the glyph markers, and a glyph active at the start may not be "
                  "dark: add {more} (`glyph at X,Y`, without `active`), or take {extra} out of the plan",
    summary="A deck plan with more dark glyphs than the quest has glyphs that start inactive.",
    explanation="""
Altar of Despair's dark glyphs are mixed in with the glyph markers: the overlord lays
each one face down in place of a glyph of transport, and the heroes learn which it is
when they step on it. A glyph the quest marks `active` starts face up and may not be
dark, so every dark glyph in the plan (the quest's `overlord { }` block, or a YAML
plan checked with `questc deck`) needs a glyph of its own that starts inactive.

The diagnostic points at the first dark glyph that has no glyph left to hide it; the
glyphs active at the start are labelled.
""",
    example=Example(
        failing=_quest(_AOD, tail="overlord {\n  dark_glyph summoning\n}\n"),
        fixed=_quest(_AOD, "  glyph at 3,0\n", tail="overlord {\n  dark_glyph summoning\n}\n")),
    fields=("planned", "inactive", "more", "extra"),
)
