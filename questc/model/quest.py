"""The resolved quest: every name looked up, every point made absolute, every component tied to its catalog entry.

Model objects keep the syntax node they came from (`node`) so checks can point at
the source; they hold no geometry beyond cells: walls, doors and sight belong to
the board.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from questc.catalog import Catalog, MonsterType, ObstacleKind, PieceType, PlacedShape
from questc.diagnostics.core import Span
from questc.editions import Edition
from questc.records import record
from questc.syntax import nodes as n

Cell = tuple[int, int]

# The second edition's tokens: markers the heroes search, carry, meet or fight.
TOKEN_KINDS = ("search", "objective", "villager", "lieutenant")


@record
class PlacedPieceModel:
    """A map piece placed on the grid: its type, corner, turn and cells."""

    id: str
    type: PieceType
    at: Cell
    shape: PlacedShape
    turn: int
    node: n.Piece


def readable(identifier: str) -> str:
    """An identifier in (warden_lamp); the words a player reads for it out (warden lamp)."""
    return identifier.replace("_", " ")


def _display(node, identifier: str) -> str:
    """The name a writer gave a thing (`door red_seal "The Red Seal" ...`), else its identifier made readable."""
    written = getattr(node, "display", None)
    return written.value if written is not None and written.value.strip() else readable(identifier)


@record
class DoorModel:
    """A door as written; the board finds its edges (`between` the joint of two pieces, or `at` a cell side)."""

    id: str
    rune: str | None
    between: tuple[str, str] | None
    at: Cell | None
    side: str | None
    node: n.Door

    @property
    def display(self) -> str:
        """The door's name for players."""
        return _display(self.node, self.id)


@record
class StairsModel:
    """A pair of staircase markers of one colour."""

    colour: str
    ends: tuple[Cell, Cell]
    node: n.Stairs

    @property
    def display(self) -> str:
        """The staircase's name for players: the one written, else "iron stairs" for `stairs iron`."""
        written = self.node.display
        return written.value if written is not None and written.value.strip() else f"{readable(self.colour)} stairs"


@record
class AreaModel:
    """An area with its pieces, cells, texts and contents."""

    id: str
    name: str
    start: bool
    pieces: tuple[str, ...]
    cells: frozenset[Cell]  # every cell the area claims (its pieces' cells and `cells` statements)
    read: tuple[str, ...]
    notes: tuple[str, ...]
    node: n.Area


@record
class Marker:
    """A marker on the map. kind: glyph, chest, treasure, relic, runekey, encounter, or a
    second edition token (search, objective, villager, lieutenant: TOKEN_KINDS).

    `variant`: the chest type, treasure kind, relic name, runekey colour, objective
    colour (None: plain side up) or lieutenant; `active` for glyphs; `encounter` id for
    encounter markers; `display`: a relic's or a named token's name for players as written
    (None: its name made readable); `facing` for a lieutenant; `token`: the identifier of the
    token statement that placed it, when the quest names it.
    """

    kind: str
    at: Cell
    area: str
    span: Span
    variant: str | None = None
    active: bool = False
    encounter: str | None = None
    display: str | None = None
    facing: str | None = None
    token: str | None = None


@record
class Figure:
    """One monster figure. rank: normal, master or named."""

    type: MonsterType
    rank: str
    at: Cell
    cells: frozenset[Cell]
    facing: str | None
    players: tuple[int, int] | None
    area: str
    span: Span
    named: str | None = None


@record
class ObstacleModel:
    """An obstacle or trap and the cells it covers; `piece`: the tile it is printed on
    (a second edition tile's terrain, written by no statement), else None."""

    kind: ObstacleKind
    cells: tuple[Cell, ...]
    facing: str | None
    area: str
    span: Span
    piece: str | None = None


@record
class NamedModel:
    """A named monster with its type and its placements."""

    id: str
    display: str
    type: MonsterType | None
    node: n.NamedMonster
    placements: tuple[n.PlaceNamed, ...]


@record
class EncounterModel:
    """An encounter marker: where it is and the area holding it."""

    id: str
    at: Cell
    area: str
    node: n.Encounter

    @property
    def display(self) -> str:
        """The encounter's name for players."""
        return _display(self.node, self.id)


@record
class GroupModel:
    """A monster group the overlord places himself (second edition), or a lieutenant placed so.

    kind: "monster" (`group TYPE`: its id is the monster type), "open" (`open group [ID]`: the
    overlord chooses a monster with one of the quest's traits; id as written, else `open_1`,
    `open_2`, ... in source order) or "lieutenant" (`lieutenant NAME on ...`: id the name).
    `pieces`: the pieces written after `on` (empty: anywhere in its area); `cells`: every cell
    it may be placed on; `minions`/`masters`: the sizes written (None: the monster card's for
    the number of heroes, `MonsterType.group_size`); `changes`: to every figure of the group.
    """

    id: str
    kind: str
    type: MonsterType | None
    area: str
    pieces: tuple[str, ...]
    cells: frozenset[Cell]
    span: Span
    node: n.Group | n.Lieutenant
    minions: n.Amount | None = None
    masters: n.Amount | None = None
    changes: tuple[n.GroupChange, ...] = ()

    def size(self, heroes: int) -> tuple[int, int]:
        """(minions, masters) placed with that many heroes: as written, else the card's (a lieutenant: 0, 1;
        an open group's monster is not known: 0, 0)."""
        if self.kind == "lieutenant":
            return (0, 1)
        card = self.type.group_size(heroes) if self.type is not None else None
        minions = self.minions.value(heroes) if self.minions is not None else (card[0] if card else 0)
        masters = self.masters.value(heroes) if self.masters is not None else (card[1] if card else 0)
        return (minions, masters)

    @property
    def display(self) -> str:
        """Its name for players: the monster's (`goblin archer`), `open group`, or the lieutenant's."""
        if self.kind == "open":
            return "open group" if self.id.startswith(OPEN_GROUP) else readable(self.id)
        return readable(self.type.name if self.type is not None else self.id)

    @property
    def words(self) -> str:
        """It in a sentence: `the goblin archer group`, `the open group`, `the open group cultists`, `Splig`."""
        if self.kind == "lieutenant":
            return readable(self.id).title()
        if self.kind == "open":
            return "the open group" + ("" if self.id.startswith(OPEN_GROUP) else f" {readable(self.id)}")
        return f"the {self.display} group"


# The identifiers of open groups written without one: open_1, open_2, ...
OPEN_GROUP = "open_"


@record
class TokenModel:
    """A token statement (second edition): `kind` search, objective or villager; `id`/`display` when
    the quest names it; `colour` an objective's coloured back (None: plain side).

    placement: "at" (one token at each of `cells`), "on" (`count` tokens on the pieces `pieces`,
    where the overlord chooses: `cells` are theirs), "among" (`count` tokens at random among
    `cells`) or "carried" (a hero carries it from the start: no cells). `count` is written with
    the heroes in it (`n.Amount`); for "at" it is the number of points.
    """

    kind: str
    placement: str
    cells: tuple[Cell, ...]
    count: n.Amount
    area: str
    span: Span
    node: n.Token
    id: str | None = None
    display: str | None = None
    colour: str | None = None
    pieces: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Its name for players: as written, else its identifier made readable, else its kind."""
        if self.display:
            return self.display
        return readable(self.id) if self.id else f"{self.kind} token"


@record
class CounterModel:
    """`counter ID ["NAME"]`: a named counter, 0 at the start, changed by effects, tested by conditions."""

    id: str
    node: n.CounterDef

    @property
    def display(self) -> str:
        return _display(self.node, self.id)


@record
class EncounterHeader:
    """What the encounters of one quest (`part_of`) must agree on, and where each file says it: the
    facts the quest-level checks read (questc.quest_sets), kept when a long run lets the model go.

    `label`: `2`, `2a` (None: no `encounter` field); `nexts`: each `then encounter N` of its
    victories, with where it is written; the spans point into this file.
    """

    part_of: str | None
    number: int | None
    alternative: str | None
    edition: str
    players: tuple[int, int]
    expansions: tuple[str, ...]
    act: int | None
    header: Span
    part_of_span: Span
    encounter_span: Span
    players_span: Span
    expansions_span: Span
    act_span: Span
    nexts: tuple[tuple[int, str | None, Span], ...] = ()

    @property
    def label(self) -> str | None:
        return None if self.number is None else f"{self.number}{self.alternative or ''}"


@record
class HeroStartModel:
    """A `start at` point: a space where the heroes start (second edition)."""

    at: Cell
    area: str
    span: Span


@dataclass
class QuestModel:
    """A whole quest, resolved. Lists keep source order."""

    path: str
    syntax: n.QuestFile
    header: n.Header | None
    catalog: Catalog
    id: str
    title: str
    edition: Edition  # the rule set it is played by (questc.editions)
    expansions: tuple[str, ...]
    players: tuple[int, int]
    conquest: int | None
    treachery: dict[str, int] | None
    reveal: str
    author: str | None
    version: str | None
    intro: str | None
    special: str | None
    # Second edition: which encounter of which quest this file is (None: not given), the letter of
    # an alternative encounter (`encounter 2a`: "a"), the campaign's act and the open groups' traits.
    encounter: int | None = None
    part_of: str | None = None
    alternative: str | None = None
    act: int | None = None
    traits: tuple[str, ...] = ()
    pieces: dict[str, PlacedPieceModel | None] = field(default_factory=dict)  # None: named, unusable
    doors: dict[str, DoorModel] = field(default_factory=dict)
    stairs: list[StairsModel] = field(default_factory=list)
    areas: dict[str, AreaModel] = field(default_factory=dict)
    markers: list[Marker] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    obstacles: list[ObstacleModel] = field(default_factory=list)
    named: dict[str, NamedModel] = field(default_factory=dict)
    encounters: dict[str, EncounterModel] = field(default_factory=dict)
    triggers: list[n.Trigger] = field(default_factory=list)
    chest_chart: n.ChestChart | None = None
    overlord: n.OverlordPlan | None = None
    victories: list[n.Victory] = field(default_factory=list)
    hero_starts: list[HeroStartModel] = field(default_factory=list)
    groups: dict[str, GroupModel] = field(default_factory=dict)
    tokens: list[TokenModel] = field(default_factory=list)
    counters: dict[str, CounterModel] = field(default_factory=dict)
    # `entrance PIECE, ...` and `exit PIECE, ...`: role -> the pieces given it (empty: by their type).
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Whether names resolved cleanly; the geometry stages run only when they did.
    resolved: bool = True

    def header_span(self, keyword: str | None = None) -> Span:
        """The span of a header field (or of the header's title) to point at."""
        if self.header is not None:
            if keyword:
                found = self.header.get(keyword)
                if found is not None:
                    return found.span
            return self.header.title.span
        return Span(self.path, 1, 1, 1, 2)

    def effects(self) -> Iterator[tuple[n.Effect, EncounterModel | n.Trigger]]:
        """Every effect of the quest with what runs it, in source order within each: each encounter's
        effects (the encounter in hand), then each `on` block's (the trigger)."""
        for encounter in self.encounters.values():
            for effect in encounter.node.effects:
                yield effect, encounter
        for trigger in self.triggers:
            for effect in trigger.effects:
                yield effect, trigger

    def encounter_header(self) -> EncounterHeader | None:
        """The facts its quest's other encounters must agree with; None for a quest of one file (no
        `part_of`, no `encounter`)."""
        if self.part_of is None and self.encounter is None:
            return None
        nexts = tuple((v.next.number, v.next.alternative, v.next.span) for v in self.victories if v.next is not None)
        return EncounterHeader(
            self.part_of,
            self.encounter,
            self.alternative,
            self.edition.name,
            self.players,
            self.expansions,
            self.act,
            self.header_span(),
            self.header_span("part_of"),
            self.header_span("encounter"),
            self.header_span("players"),
            self.header_span("expansions"),
            self.header_span("act"),
            nexts,
        )

    @property
    def encounter_label(self) -> str | None:
        """`2`, `2a`: the encounter as questc writes it (None: not given)."""
        return None if self.encounter is None else f"{self.encounter}{self.alternative or ''}"

    def role_pieces(self, role: str) -> list[PlacedPieceModel]:
        """The quest's entrances or exits (`role`): the pieces its `entrance`/`exit` statements name, else
        every piece of that type (`entrance`, `exit`), in source order."""
        named = self.roles.get(role)
        if named:
            return [p for name in named if (p := self.pieces.get(name)) is not None]
        return [p for p in self.pieces.values() if p is not None and p.type.kind == role]

    def tokens_named(self) -> dict[str, TokenModel]:
        """Token identifier -> its statement, for the tokens the quest names."""
        return {t.id: t for t in self.tokens if t.id is not None}

    def heroes(self) -> tuple[int, int]:
        """The fewest and most heroes the quest is played with: one per player but the overlord, and
        at least two (a lone hero player controls two heroes)."""
        return (max(2, self.players[0] - 1), max(2, self.players[1] - 1))

    def lieutenants(self) -> dict[str, Marker]:
        """Lieutenant name -> its first token on the map."""
        out: dict[str, Marker] = {}
        for marker in self.markers:
            if marker.kind == "lieutenant" and marker.variant is not None:
                out.setdefault(marker.variant, marker)
        return out

    @property
    def start_areas(self) -> list[AreaModel]:
        return [a for a in self.areas.values() if a.start]

    def area_of(self, cell: Cell) -> str | None:
        for area in self.areas.values():
            if cell in area.cells:
                return area.id
        return None
