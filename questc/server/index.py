"""A quest's syntax tree in; where every identifier is defined and used, and what stands at a position, out.

Everything here reads the spans of the syntax tree (questc.syntax.nodes): a name is
a definition or a reference because of the node and field it was parsed into, never
because of how the text around it looks. Kinds follow the resolver's tables (pieces,
doors, areas, named monsters, encounters) plus stairs, whose colour names the pair.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from questc.api import Span
from questc.api import nodes as n

# The identifier kinds a quest defines, as the resolver words them.
PIECE, DOOR, AREA, NAMED, ENCOUNTER, STAIRS = "piece", "door", "area", "named monster", "encounter", "stairs"
TOKEN, COUNTER, OPEN_GROUP = "token", "counter", "open group"
KINDS = (PIECE, DOOR, AREA, NAMED, ENCOUNTER, STAIRS, TOKEN, COUNTER, OPEN_GROUP)

_DEFINES = {
    (n.Piece, "id"): PIECE,
    (n.Door, "id"): DOOR,
    (n.Stairs, "colour"): STAIRS,
    (n.Area, "id"): AREA,
    (n.NamedMonster, "id"): NAMED,
    (n.Encounter, "id"): ENCOUNTER,
    (n.Token, "id"): TOKEN,
    (n.CounterDef, "id"): COUNTER,
    (n.Group, "id"): OPEN_GROUP,
}
_REFERS = {
    (n.PointRef, "piece"): PIECE,
    (n.CellSet, "piece"): PIECE,
    (n.Door, "between"): PIECE,
    (n.Pieces, "pieces"): PIECE,
    (n.PlaceNamed, "id"): NAMED,
    (n.DoorEffect, "door"): DOOR,
    (n.RevealEffect, "area"): AREA,
    (n.Role, "pieces"): PIECE,
    (n.Group, "on"): PIECE,
    (n.Token, "on"): PIECE,
    (n.Lieutenant, "on"): PIECE,
    (n.PlaceEffect, "on"): PIECE,
    (n.PlaceEffect, "area"): AREA,
    (n.RemoveEffect, "target"): TOKEN,
    (n.ReplaceEffect, "target"): TOKEN,
    (n.CounterEffect, "counter"): COUNTER,
    (n.CompareCondition, "name"): COUNTER,
}
_TRIGGER_TARGETS = {"reveal": AREA, "killed": NAMED, "open": DOOR}
_CONDITION_TARGETS = {"killed": NAMED, "revealed": AREA, "triggered": ENCOUNTER, "opened": DOOR, "carried": TOKEN}
# The place a condition names after its target (`carried key to A`: an area or a piece; `zombie on T1`).
_CONDITION_PLACES = {"on": PIECE, "in": AREA}
# Catalog names: (node, field) -> the catalog's lookup kind (or a word for closed lists).
_CATALOG = {
    (n.Piece, "type"): "piece",
    (n.Monster, "type"): "monster",
    (n.NamedMonster, "type"): "monster",
    (n.SpawnEffect, "type"): "monster",
    (n.Obstacle, "kind"): "obstacle",
    (n.Trap, "kind"): "trap",
    (n.Treasure, "kind"): "treasure",
    (n.Chest, "kind"): "chest",
    (n.ChestRow, "kind"): "chest",
    (n.Door, "rune"): "colour",
    (n.Runekey, "colour"): "colour",
    (n.UnlockEffect, "colour"): "colour",
    (n.PlanGlyph, "name"): "dark_glyph",
    (n.PlanCard, "name"): "card",
    (n.Ability, "name"): "ability",
    (n.TreasureEffect, "kind"): "treasure card",
    (n.ChestContent, "name"): "chest content",
    (n.Group, "type"): "monster",
    (n.PlaceEffect, "type"): "monster",
    (n.Relic, "name"): "relic",
    (n.Lieutenant, "name"): "lieutenant",
}
# Nodes whose `{ ... }` block is worth folding and outlining.
BLOCKS = (n.Header, n.Area, n.NamedMonster, n.Encounter, n.Trigger, n.ChestChart, n.OverlordPlan)


@dataclass(frozen=True)
class Occurrence:
    """One identifier written in the quest: its kind, its name, where, and whether this defines it."""

    kind: str
    name: str
    span: Span
    definition: bool
    node: object = None  # the statement it stands in


@dataclass(frozen=True)
class CatalogName:
    """A catalog name written in the quest (`ogre`, `room_4x4`, `red`) and the catalog kind it is looked up as."""

    kind: str
    name: str
    span: Span
    node: object = None


@dataclass(frozen=True)
class CellRef:
    """A point or rectangle written in the quest."""

    span: Span
    node: n.PointRef | n.CellSet
    statement: object = None


def contains(span: Span, line: int, column: int) -> bool:
    """Is the cursor at (line, column) on the span? Just after its last character counts (a word being typed)."""
    if (line, column) < (span.line, span.column):
        return False
    return (line, column) <= (span.end_line, span.end_column)


@dataclass
class QuestIndex:
    """Where names, catalog names and cells occur in a quest, for look-ups by position."""

    tree: n.QuestFile | None
    occurrences: list[Occurrence] = field(default_factory=list)
    catalog_names: list[CatalogName] = field(default_factory=list)
    cells: list[CellRef] = field(default_factory=list)
    statements: list[Any] = field(default_factory=list)  # every node with a span, outermost first

    # ---- look-ups -------------------------------------------------------------------
    def defined(self, kind: str | None = None) -> dict[str, Occurrence]:
        """name -> its first definition, for one kind or all."""
        found: dict[str, Occurrence] = {}
        for o in self.occurrences:
            if o.definition and (kind is None or o.kind == kind):
                found.setdefault(o.name, o)
        return found

    def definitions(self, kind: str, name: str) -> list[Occurrence]:
        return [o for o in self.occurrences if o.definition and o.kind == kind and o.name == name]

    def references(self, kind: str, name: str, *, include_definition: bool = True) -> list[Occurrence]:
        return [
            o
            for o in self.occurrences
            if o.kind == kind and o.name == name and (include_definition or not o.definition)
        ]

    def occurrence_at(self, line: int, column: int) -> Occurrence | None:
        return _innermost(o for o in self.occurrences if contains(o.span, line, column))

    def catalog_name_at(self, line: int, column: int) -> CatalogName | None:
        return _innermost(c for c in self.catalog_names if contains(c.span, line, column))

    def cell_at(self, line: int, column: int) -> CellRef | None:
        return _innermost(c for c in self.cells if contains(c.span, line, column))

    def enclosing(self, line: int, column: int, kinds: tuple = ()) -> list[Any]:
        """The nodes whose span holds the cursor, outermost first (only `kinds` if given)."""
        return [s for s in self.statements if contains(s.span, line, column) and (not kinds or isinstance(s, kinds))]


def _innermost(candidates: Iterable[Any]) -> Any:
    best = None
    for candidate in candidates:
        if best is None or (candidate.span.start, -candidate.span.end) > (best.span.start, -best.span.end):
            best = candidate
    return best


def build_index(tree: n.QuestFile | None) -> QuestIndex:
    """Walk the tree once, recording identifiers, catalog names, points and statements."""
    index = QuestIndex(tree)
    if tree is None:
        return index
    if tree.header is not None:
        _walk(tree.header, index, None)
    for item in tree.items:
        _walk(item, index, None)
    return index


def _names(value) -> list[n.Name]:
    if isinstance(value, n.Name):
        return [value]
    if isinstance(value, tuple):
        return [v for v in value if isinstance(v, n.Name)]
    return []


def _walk(node, index: QuestIndex, statement) -> None:
    if not dataclasses.is_dataclass(node) or isinstance(node, (n.Name, n.Text)):
        return
    index.statements.append(node)
    kind_of = type(node)
    if isinstance(node, (n.PointRef, n.CellSet)):
        index.cells.append(CellRef(node.span, node, statement))
    if isinstance(node, n.HeaderField) and node.keyword == "expansions":
        for name in _names(node.value):
            index.catalog_names.append(CatalogName("set", name.value, name.span, node))
    holder = statement if isinstance(node, (n.PointRef, n.CellSet, n.CountRange)) else node
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        value = getattr(node, f.name)
        key = (kind_of, f.name)
        kind = _DEFINES.get(key)
        role_definition = kind is not None
        if kind is None:
            kind = _REFERS.get(key)
        if kind is None and isinstance(node, n.Trigger) and f.name == "target":
            kind = _TRIGGER_TARGETS.get(node.event)
        if kind is None and isinstance(node, n.EventCondition) and f.name == "target":
            kind = _CONDITION_TARGETS.get(node.event)
        if kind is None and isinstance(node, n.EventCondition) and f.name == "destination":
            kind = _CONDITION_PLACES.get(node.event)
        if kind is not None:
            for name in _names(value):
                index.occurrences.append(Occurrence(kind, name.value, name.span, role_definition, holder))
            continue
        catalog = _CATALOG.get(key)
        if catalog is not None:
            if isinstance(value, n.Text):  # an overlord card is written as a string
                index.catalog_names.append(CatalogName(catalog, value.value, value.span, node))
            for name in _names(value):
                index.catalog_names.append(CatalogName(catalog, name.value, name.span, node))
            continue
        children = value if isinstance(value, tuple) else (value,)
        for child in children:
            if dataclasses.is_dataclass(child):
                _walk(child, index, holder)
