"""The resolved quest: every name looked up, every point made absolute, every component tied to its catalog entry.

Model objects keep the syntax node they came from (`node`) so checks can point at
the source; they hold no geometry beyond cells: walls, doors and sight belong to
the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator

from questc.catalog import Catalog, MonsterType, ObstacleKind, PieceType, PlacedShape
from questc.diagnostics.core import Span
from questc.editions import Edition
from questc.syntax import nodes as n

Cell = tuple[int, int]

# The second edition's tokens: markers the heroes search, carry, meet or fight.
TOKEN_KINDS = ("search", "objective", "villager", "lieutenant")


@dataclass(frozen=True)
class PlacedPieceModel:
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class StairsModel:
    colour: str
    ends: tuple[Cell, Cell]
    node: n.Stairs

    @property
    def display(self) -> str:
        """The staircase's name for players: the one written, else "iron stairs" for `stairs iron`."""
        written = self.node.display
        return written.value if written is not None and written.value.strip() else f"{readable(self.colour)} stairs"


@dataclass(frozen=True)
class AreaModel:
    id: str
    name: str
    start: bool
    pieces: tuple[str, ...]
    cells: frozenset[Cell]            # every cell the area claims (its pieces' cells and `cells` statements)
    read: tuple[str, ...]
    notes: tuple[str, ...]
    node: n.Area


@dataclass(frozen=True)
class Marker:
    """A marker on the map. kind: glyph, chest, treasure, relic, runekey, encounter, or a
    second edition token (search, objective, villager, lieutenant: TOKEN_KINDS).

    `variant`: the chest type, treasure kind, relic name, runekey colour, objective
    colour (None: plain side up) or lieutenant; `active` for glyphs; `encounter` id for
    encounter markers; `display`: a relic's name for players as written (None: its
    name made readable); `facing` for a lieutenant.
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ObstacleModel:
    """An obstacle or trap and the cells it covers; `piece`: the tile it is printed on
    (a second edition tile's terrain, written by no statement), else None."""
    kind: ObstacleKind
    cells: tuple[Cell, ...]
    facing: str | None
    area: str
    span: Span
    piece: str | None = None


@dataclass(frozen=True)
class NamedModel:
    id: str
    display: str
    type: MonsterType | None
    node: n.NamedMonster
    placements: tuple[n.PlaceNamed, ...]


@dataclass(frozen=True)
class EncounterModel:
    id: str
    at: Cell
    area: str
    node: n.Encounter

    @property
    def display(self) -> str:
        """The encounter's name for players."""
        return _display(self.node, self.id)



@dataclass(frozen=True)
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
    edition: Edition                    # the rule set it is played by (questc.editions)
    expansions: tuple[str, ...]
    players: tuple[int, int]
    conquest: int | None
    treachery: dict[str, int] | None
    reveal: str
    author: str | None
    version: str | None
    intro: str | None
    special: str | None
    # Second edition: which encounter of which quest this file is (None: not given).
    encounter: int | None = None
    part_of: str | None = None
    pieces: dict[str, PlacedPieceModel | None] = field(default_factory=dict)   # None: named, unusable
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
