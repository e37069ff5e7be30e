"""A compiled quest in; the plain records the Valkyrie export works from out (an `Encounter`).

This is the one place the export reads the compiled quest (its model, board, reveal
analysis and the sheet's wording): everything after it works on these frozen
records, which also cross process boundaries in a parallel build. When the compiled
quest changes shape, this module changes and the rest of the export does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from questc.diagnostics.core import Span

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

__all__ = [
    "Area",
    "Compare",
    "Condition",
    "Counter",
    "Door",
    "Effect",
    "Encounter",
    "Figure",
    "Group",
    "Named",
    "Occurrence",
    "Piece",
    "Token",
    "TokenSet",
    "Trigger",
    "Victory",
    "read",
]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Piece:
    """A placed map piece as the export reads it: its tile code and place."""

    id: str
    type: str  # the catalog's piece type (tile_9a, end_cap...)
    set: str
    kind: str  # tile, end_cap, entrance...
    tile: str | None  # the code printed on a numbered tile (9A), else None
    at: Cell
    turn: int
    width: int  # unturned
    height: int
    cells: frozenset[Cell]
    span: Span


@dataclass(frozen=True)
class Door:
    """A door with the edges it closes and the areas on its sides."""

    id: str
    name: str
    edges: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    areas: tuple[str, ...]  # the areas on its two sides (one when both sides are one area)
    span: Span


@dataclass(frozen=True)
class Area:
    """An area with what is read in it and the areas it opens onto."""

    id: str
    name: str
    start: bool
    pieces: tuple[str, ...]
    read: tuple[str, ...]
    notes: tuple[str, ...]
    neighbours: tuple[str, ...]  # areas a figure can step into from it without a door
    span: Span


@dataclass(frozen=True)
class Token:
    """A search, objective or villager token; `variant` is an objective's colour (None: plain side);
    `id` the identifier of the statement that placed it, when the quest names it."""

    kind: str
    variant: str | None
    at: Cell
    area: str
    span: Span
    id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class TokenSet:
    """Tokens the overlord places (`on` pieces, `among` points: `count(heroes)` of them on `cells`, the
    free spaces there, in order) or carried by a hero from the start (`carried`)."""

    kind: str
    variant: str | None
    id: str | None
    name: str
    placement: str
    cells: tuple[Cell, ...]
    counts: tuple[tuple[int, int], ...]  # (heroes, tokens) for each number of heroes Valkyrie plays
    area: str
    span: Span


@dataclass(frozen=True)
class Group:
    """A monster group the overlord places on `cells` (the free spaces of its place, nearest its middle
    first): kind "monster" (`type`), "open" (chosen by `traits`) or "lieutenant" (`type` its name);
    `sizes`: (heroes, minions, masters); `changes`: the group-wide changes, in words."""

    id: str
    kind: str
    type: str
    set: str
    size: tuple[int, int]  # a figure's (w, h)
    cells: tuple[Cell, ...]
    sizes: tuple[tuple[int, int, int], ...]
    traits: tuple[str, ...]
    changes: tuple[str, ...]
    area: str
    where: str  # its place in words (tile 4A, area B)
    span: Span


@dataclass(frozen=True)
class Counter:
    """A quest counter, which becomes a Valkyrie variable."""

    id: str
    name: str
    span: Span


@dataclass(frozen=True)
class Figure:
    """A monster figure, a named monster's figure (rank "named") or a lieutenant (rank "lieutenant")."""

    type: str  # the catalog's monster type, or the lieutenant's name
    set: str
    rank: str  # normal, master, named, lieutenant
    at: Cell  # top-left cell
    size: tuple[int, int]  # the (w, h) it covers, facing applied
    players: tuple[int, int] | None
    area: str
    named: str | None
    span: Span


@dataclass(frozen=True)
class Named:
    """A named monster: its type and what makes it unlike the others."""

    id: str
    name: str
    type: str
    set: str
    wounds: int | None  # a `wounds +N`/`-N` change (Valkyrie adds health to a unique monster)
    rules: tuple[str, ...]  # every stat change and ability, in words
    span: Span


@dataclass(frozen=True)
class Effect:
    """One effect: `kind` as the language names it (read, spawn, open...) and its fields; `words`
    is how the sheet says it, for the effects Valkyrie shows as text."""

    kind: str
    span: Span
    text: str | None = None
    amount: int | None = None
    target: str | None = None  # a door, an area, a side, a colour, a treasure kind
    monster: str | None = None
    monster_set: str | None = None
    master: bool = False
    cells: tuple[Cell, ...] = ()
    size: tuple[int, int] = (1, 1)
    words: str = ""
    # place: what (`target`: monster or a token kind), how many (by the heroes) and the limit;
    # counter: `relative` (a change, else the value set)
    counts: tuple[tuple[int, int], ...] = ()
    limit: str | int | None = None
    relative: bool = True


@dataclass(frozen=True)
class Trigger:
    """An encounter or `on`/`at` rule: when it fires and its effects."""

    event: str  # reveal, killed, open, round, defeated, each
    target: str | None
    round: int | None
    effects: tuple[Effect, ...]
    span: Span
    phase: str | None = None  # each: start or end
    every: str | None = None  # each: round, overlord turn, hero turn
    condition: Condition | None = None
    words: str | None = None  # the condition in words (the sheet's)


@dataclass(frozen=True)
class Occurrence:
    """A victory condition's atom: killed/revealed/opened/triggered/defeated TARGET, or carried TARGET
    to `destination` (None: off the map's edge)."""

    event: str
    target: str
    span: Span
    destination: str | None = None


@dataclass(frozen=True)
class Compare:
    """A victory condition's comparison: round, objectives, exited or conquest OP value, or a counter
    the quest declares (`declared`)."""

    counter: str
    op: str
    value: int
    span: Span
    declared: bool = False


@dataclass(frozen=True)
class Combined:
    op: str  # and, or, not
    operands: tuple[Condition, ...]


Condition = Occurrence | Compare | Combined


@dataclass(frozen=True)
class Victory:
    """A victory condition, with its words for the quest sheet."""

    side: str
    label: str | None
    when: Condition
    words: str  # the condition in words (the sheet's)
    span: Span
    next: str | None = None  # `then encounter 2a`: the encounter it leads on to


@dataclass(frozen=True)
class Encounter:
    """Everything the export needs from one compiled quest file (an encounter of a quest)."""

    path: str
    id: str
    title: str
    edition: str
    encounter: int | None
    part_of: str | None
    players: tuple[int, int]
    expansions: tuple[str, ...]
    author: str | None
    version: str | None
    intro: str | None
    special: str | None
    reveal: str  # all, sight, door
    header: Span  # where the header is, for diagnostics about the whole quest
    reveal_span: Span | None  # the header's `reveal` field, `encounter` field (None: not written)
    encounter_span: Span | None
    pieces: tuple[Piece, ...]
    joints: tuple[tuple[str, str], ...]
    doors: tuple[Door, ...]
    areas: tuple[Area, ...]
    tokens: tuple[Token, ...]
    figures: tuple[Figure, ...]
    named: tuple[Named, ...]
    start: tuple[Cell, ...]
    start_from: str  # entrance, start_at or area
    triggers: tuple[Trigger, ...]
    victories: tuple[Victory, ...]
    alternative: str | None = None
    act: int | None = None
    act_span: Span | None = None
    groups: tuple[Group, ...] = ()
    token_sets: tuple[TokenSet, ...] = ()
    counters: tuple[Counter, ...] = ()

    @property
    def label(self) -> str | None:
        """`2`, `2a`: which encounter of its quest it is (None: not given)."""
        return None if self.encounter is None else f"{self.encounter}{self.alternative or ''}"


def _condition(node) -> Condition:
    from questc.syntax import nodes as n

    if isinstance(node, n.EventCondition):
        return Occurrence(
            node.event, node.target.value, node.span, node.destination.value if node.destination is not None else None
        )
    if isinstance(node, n.CompareCondition):
        return Compare(node.counter, node.op, node.value, node.span, declared=node.name is not None)
    if isinstance(node, n.NotCondition):
        return Combined("not", (_condition(node.operand),))
    if isinstance(node, n.AllCondition):
        return Combined("and", tuple(_condition(c) for c in node.operands))
    if isinstance(node, n.AnyCondition):
        return Combined("or", tuple(_condition(c) for c in node.operands))
    raise TypeError(f"no Valkyrie form for condition {type(node).__name__}")


def _effect(model, node, words: str) -> Effect:
    from questc.emit.engine_json import effect_data
    from questc.syntax import nodes as n

    if isinstance(node, (n.Read, n.InstructEffect)):
        return Effect("read" if isinstance(node, n.Read) else "instruct", node.span, text=node.text.value, words=words)
    if isinstance(node, (n.ConquestEffect, n.CoinsEffect, n.ThreatEffect)):
        kind = {n.ConquestEffect: "conquest", n.CoinsEffect: "coins", n.ThreatEffect: "threat"}[type(node)]
        return Effect(kind, node.span, amount=node.amount, words=words)
    if isinstance(node, n.TreasureEffect):
        return Effect("treasure", node.span, target=node.kind.value, amount=node.count, words=words)
    if isinstance(node, n.SpawnEffect):
        monster = model.catalog.lookup("monster", node.type.value)
        return Effect(
            "spawn",
            node.span,
            monster=node.type.value,
            monster_set=monster.set if monster else "",
            master=node.master,
            cells=tuple((f["at"][0], f["at"][1]) for f in effect_data(model, node)["figures"]),
            size=monster.size() if monster else (1, 1),
            words=words,
        )
    if isinstance(node, n.DoorEffect):
        return Effect(node.action, node.span, target=node.door.value, words=words)
    if isinstance(node, n.UnlockEffect):
        return Effect("unlock", node.span, target=node.colour.value, words=words)
    if isinstance(node, n.RevealEffect):
        return Effect("reveal", node.span, target=node.area.value, words=words)
    if isinstance(node, n.WinEffect):
        return Effect("win", node.span, target=node.side.value, words=words)
    if isinstance(node, n.PlaceEffect):
        data = effect_data(model, node)
        monster = model.catalog.lookup("monster", node.type.value) if node.type is not None else None
        low, high = _heroes(model)
        counts = tuple((h, node.count.value(h) if node.count is not None else 1) for h in range(low, high + 1))
        return Effect(
            "place",
            node.span,
            target=node.kind,
            monster=node.type.value if node.type else None,
            monster_set=monster.set if monster else None,
            master=node.master,
            text=node.colour.value if node.colour is not None else None,
            cells=tuple((c[0], c[1]) for c in data["cells"]),
            size=monster.size() if monster else (1, 1),
            counts=counts,
            limit=node.limit,
            words=words,
        )
    if isinstance(node, n.RemoveEffect):
        return Effect("remove", node.span, target=node.target.value, words=words)
    if isinstance(node, n.ReplaceEffect):
        return Effect(
            "replace",
            node.span,
            target=node.target.value,
            monster=node.kind,
            text=node.colour.value if node.colour is not None else None,
            words=words,
        )
    if isinstance(node, n.CounterEffect):
        return Effect(
            "counter", node.span, target=node.counter.value, amount=node.amount, relative=node.relative, words=words
        )
    return Effect("unknown", node.span, target=type(node).__name__, words=words)


def _heroes(model) -> tuple[int, int]:
    """The heroes Valkyrie plays the quest with: one per player but the overlord (1 to 4)."""
    return max(1, model.players[0] - 1), min(4, model.players[1] - 1)


def _nearest_middle(cells) -> tuple[Cell, ...]:
    """Cells in; the same, those nearest their middle first (then row by row): where the overlord's
    figures and tokens go when Valkyrie must be told the spaces."""
    cells = sorted(cells, key=lambda c: (c[1], c[0]))
    if not cells:
        return ()
    mx = sum(c[0] for c in cells) / len(cells)
    my = sum(c[1] for c in cells) / len(cells)
    return tuple(sorted(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0])))


def _where(model, pieces: tuple[str, ...], area: str) -> str:
    """A place in words: `tile 4A`, `tiles 4A and 5B`, `the end cap`, `area B (The Hall)`."""
    from questc.model.quest import readable

    if not pieces:
        return f"{model.areas[area].name}"
    names = []
    for pid in pieces:
        piece = model.pieces.get(pid)
        names.append(
            f"tile {piece.type.tile}"
            if piece is not None and piece.type.tile
            else f"the {readable(piece.type.name)}"
            if piece is not None
            else pid
        )
    return " and ".join(names)


def _neighbours(model, board, area_of: dict[Cell, str], area_id: str) -> tuple[str, ...]:
    """The areas a figure steps into from this one with every door closed, in source order. Only the
    cells beside another area's can step into it, so only they are asked."""
    found: set[str] = set()
    for x, y in model.areas[area_id].cells:
        beside = {area_of.get((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {area_id, None}
        if not beside - found:
            continue
        for step in board.steps_from((x, y)):
            other = area_of.get(step)
            if other is not None and other != area_id:
                found.add(other)
    return tuple(a for a in model.areas if a in found)


def read(quest: CompiledQuest) -> Encounter:
    """A compiled quest (no error) in; its Encounter out."""
    from questc.analysis.reveal import hero_start_cells
    from questc.board.geometry import edge_cells
    from questc.emit.sheet import sheet_data

    model = quest.model
    quest_board = quest.quest_board
    board = quest.board
    sheet = sheet_data(quest, "text")  # plain words
    pieces = tuple(
        Piece(
            p.id,
            p.type.name,
            p.type.set,
            p.type.kind,
            p.type.tile,
            p.at,
            p.turn,
            p.type.width,
            p.type.height,
            p.shape.cells,
            p.node.span,
        )
        for p in model.pieces.values()
        if p is not None
    )
    doors = []
    for door in model.doors.values():
        edges = quest_board.door_edges.get(door.id)
        if edges is None:
            continue
        sides = edge_cells(sorted(edges)[0])
        beside = tuple(dict.fromkeys(a for a in (model.area_of(sides[0]), model.area_of(sides[1])) if a))
        first, second = sorted(edges)
        doors.append(Door(door.id, door.display, (first, second), beside, door.node.span))
    area_of = {cell: a.id for a in reversed(list(model.areas.values())) for cell in a.cells}  # the first claim wins
    areas = tuple(
        Area(a.id, a.name, a.start, a.pieces, a.read, a.notes, _neighbours(model, board, area_of, a.id), a.node.span)
        for a in model.areas.values()
    )
    tokens = tuple(
        Token(m.kind, m.variant, m.at, m.area, m.span, m.token, m.display)
        for m in model.markers
        if m.kind in ("search", "objective", "villager")
    )
    low, high = _heroes(model)
    free = {c for c in board.cells if not board.blocks_movement(c)} - {c for f in model.figures for c in f.cells}
    token_sets = tuple(
        TokenSet(
            t.kind,
            t.colour,
            t.id,
            t.name,
            t.placement,
            _nearest_middle([c for c in t.cells if c in free])
            if t.placement == "on"
            else tuple(c for c in t.cells if c in free),
            tuple((h, t.count.value(h)) for h in range(low, high + 1)),
            t.area,
            t.span,
        )
        for t in model.tokens
        if t.placement != "at"
    )
    groups = []
    for group in model.groups.values():
        monster = group.type
        sizes = tuple((h, *group.size(h)) for h in range(low, high + 1))
        groups.append(
            Group(
                group.id,
                group.kind,
                monster.name if monster else group.id,
                monster.set if monster else "second_edition",
                monster.size() if monster else (1, 1),
                _nearest_middle(group.cells & free),
                sizes,
                tuple(model.traits),
                tuple(
                    f"{c.who} {'+' if c.relative and c.amount >= 0 else ''}{c.amount} {c.stat.value}"
                    for c in group.changes
                ),
                group.area,
                _where(model, group.pieces, group.area),
                group.span,
            )
        )
    counters = tuple(Counter(c.id, c.display, c.node.span) for c in model.counters.values())
    figures = [
        Figure(f.type.name, f.type.set, f.rank, f.at, f.type.size(f.facing), f.players, f.area, f.named, f.span)
        for f in model.figures
    ]
    figures += [
        Figure(m.variant or "", "second_edition", "lieutenant", m.at, (1, 1), None, m.area, None, m.span)
        for m in model.markers
        if m.kind == "lieutenant"
    ]
    named = []
    for record, words in zip(model.named.values(), sheet["named"]):
        wounds = next((c.value for c in record.node.changes if c.stat == "wounds" and c.relative), None)
        rules = tuple(c["words"] for c in words["changes"]) + tuple(a["words"] for a in words["abilities"])
        named.append(
            Named(
                record.id,
                record.display,
                record.node.type.value,
                record.type.set if record.type else "",
                wounds,
                rules,
                record.node.span,
            )
        )
    triggers = tuple(
        Trigger(
            t.event,
            t.target.value if t.target else None,
            t.round,
            tuple(_effect(model, e, w["words"]) for e, w in zip(t.effects, words["effects"])),
            t.span,
            t.phase,
            t.every,
            _condition(t.condition) if t.condition is not None else None,
            words["condition"]["words"] if words.get("condition") else None,
        )
        for t, words in zip(model.triggers, sheet["triggers"])
    )
    victories = tuple(
        Victory(
            v.side.value,
            v.label.value if v.label else None,
            _condition(v.when),
            words["condition"]["words"],
            v.span,
            v.next.label if v.next else None,
        )
        for v, words in zip(model.victories, sheet["victories"])
    )
    starts = model.start_areas
    start_cells = hero_start_cells(model, board, starts[0].id if starts else None)
    start_from = context_start_from(model)
    return Encounter(
        path=quest.path,
        id=model.id,
        title=model.title,
        edition=model.edition.name,
        encounter=model.encounter,
        part_of=model.part_of,
        players=model.players,
        expansions=tuple(model.expansions),
        author=model.author,
        version=model.version,
        intro=model.intro,
        special=model.special,
        reveal=model.reveal,
        header=model.header_span(),
        reveal_span=_field_span(model, "reveal"),
        encounter_span=_field_span(model, "encounter"),
        pieces=pieces,
        joints=tuple((a, b) for a, b, _edges in board.joints),
        doors=tuple(doors),
        areas=areas,
        tokens=tokens,
        figures=tuple(figures),
        named=tuple(named),
        start=tuple(sorted(start_cells)),
        start_from=start_from,
        triggers=triggers,
        victories=victories,
        alternative=model.alternative,
        act=model.act,
        act_span=_field_span(model, "act"),
        groups=tuple(groups),
        token_sets=token_sets,
        counters=counters,
    )


def _field_span(model, keyword: str) -> Span | None:
    found = model.header.get(keyword) if model.header is not None else None
    return found.span if found is not None else None


def context_start_from(model) -> str:
    """How the heroes' start was chosen: `start at` points, the start area's entrance, or the area."""
    starts = model.start_areas
    if not starts:
        return "area"
    area = starts[0]
    if any(h.area == area.id and h.at in area.cells for h in model.hero_starts):
        return "start_at"
    if any(p.id in area.pieces for p in model.role_pieces("entrance")):
        return "entrance"
    return "area"
