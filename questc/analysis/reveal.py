"""QuestModel + QuestBoard in; the reveal fixed point out (LANGUAGE.md §9).

Waves: wave 0 is the start area. Given the areas revealed so far, heroes reach
every cell they can walk to from the start area, on revealed areas' cells only,
through normal doors, through rune doors whose colour is unlocked (a runekey or an
`unlock` effect on a reached cell), and over stairs whose ends are both revealed.
Every unrevealed area they then see (or, with `reveal door`, step or open a door
into) joins the next wave. Repeat until nothing changes.

`Scenario` lets the checks ask "what if": the same fixed point with some rune
colours unlocked from the start, or with some colour never unlocked, so they can
tell a cause (a rune door guarding its own key) from its consequences.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from questc.diagnostics.core import Span
from questc.records import record
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.board.board import Board
    from questc.board.quest_board import QuestBoard
    from questc.model.quest import QuestModel

Cell = tuple[int, int]


@record
class Scenario:
    """Assumptions on top of the quest: colours unlocked from the start, colours that never unlock."""

    unlocked: frozenset[str] = frozenset()
    locked: frozenset[str] = frozenset()


NO_SCENARIO = Scenario()  # the quest as written


@dataclass
class Analysis:
    """The result of the reveal fixed point.

    reveal_wave: area id -> wave (None: never revealed);
    visible_from: area id -> sorted ids of the areas from whose reached cells it is first seen
      (or stepped / opened into, with `reveal door`; "effect" when an effect revealed it);
    waves: the areas of each wave, in order;
    reached: every cell heroes can ever walk to;
    unlocked: rune colours the heroes can unlock; passable: doors they can pass;
    opened_doors: doors they can pass with a reached cell beside them;
    reached_by_wave: the cells heroes can walk to once each wave is revealed, in wave
      order (the last is `reached`).
    """

    reveal_wave: dict[str, int | None]
    visible_from: dict[str, list[str]]
    waves: list[list[str]]
    reached: frozenset[Cell]
    unlocked: frozenset[str]
    passable: frozenset[str]
    opened_doors: frozenset[str]
    scenario: Scenario = field(default_factory=Scenario)
    reached_by_wave: tuple[frozenset[Cell], ...] = ()

    @property
    def revealed(self) -> set[str]:
        return {a for a, w in self.reveal_wave.items() if w is not None}


def effects_of(model: QuestModel, reached: frozenset[Cell], revealed: set[str], opened: set[str]) -> Iterator[n.Effect]:
    """The effects that can run given what the heroes reach: encounters on reached cells,
    `on reveal` of revealed areas, `on open` of opened doors, `on round`, and `on killed`
    of named monsters next to a reached cell."""
    for encounter in model.encounters.values():
        if encounter.at in reached:
            yield from encounter.node.effects
    for trigger in model.triggers:
        target = trigger.target.value if trigger.target is not None else ""  # (round and recurring: none)
        if trigger.event == "round":
            yield from trigger.effects
        elif trigger.event == "reveal" and target in revealed:
            yield from trigger.effects
        elif trigger.event == "open" and target in opened:
            yield from trigger.effects
        elif trigger.event == "killed" and named_reachable(model, target, reached):
            yield from trigger.effects


def named_reachable(model: QuestModel, named_id: str, reached: AbstractSet[Cell]) -> bool:
    """Can a hero stand on or next to any cell of the named monster's figure (or of the
    lieutenant's token of that name, in a second edition quest)?"""
    cells = [c for figure in model.figures if figure.named == named_id for c in figure.cells]
    cells += [m.at for m in model.markers if m.kind == "lieutenant" and m.variant == named_id]
    group = model.groups.get(named_id)
    if group is not None and group.kind == "lieutenant":  # placed `on` a piece: any space of it
        cells += sorted(group.cells)
    for x, y in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (x + dx, y + dy) in reached:
                    return True
    return False


def hero_start_cells(model: QuestModel, board: Board, start_area: str | None) -> set[Cell]:
    """Where heroes are placed, by the edition's start rule (Edition.start, START_RULES): on or
    next to an active glyph of the start area (`glyph`), or on its `start at` spaces, else
    the spaces of its entrance pieces (`entrance`). Without them (Q210, Q214) or a start area
    (Q209), every cell of the start area (or of the map), so the other checks still say
    something useful."""
    if start_area is None:
        return {c for area in model.areas.values() for c in area.cells}
    return START_RULES[model.edition.start](model, board, start_area) or set(model.areas[start_area].cells)


def glyph_start(model: QuestModel, board: Board, start_area: str) -> set[Cell]:
    """The start area's active glyphs and the cells one step from them in the area; empty
    when it has no active glyph."""
    area_cells = model.areas[start_area].cells
    glyphs = [m.at for m in model.markers if m.kind == "glyph" and m.active and m.at in area_cells]
    cells = set(glyphs)
    for glyph in glyphs:
        cells.update(c for c in board.steps_from(glyph) if c in area_cells)
    return cells


def entrance_start(model: QuestModel, board: Board, start_area: str) -> set[Cell]:
    """The start area's `start at` floor spaces, else the floor spaces of the quest's entrances in it
    (`entrance PIECE`, else the pieces of type `entrance`) that no obstacle blocks (the rule book's
    usual setup); empty when it has neither."""
    area = model.areas[start_area]
    points = {h.at for h in model.hero_starts if h.area == start_area and h.at in area.cells}
    if points:
        return {c for c in points if board.is_floor(c)}
    cells: set[Cell] = set()
    for piece in model.role_pieces("entrance"):
        if piece.id in area.pieces:
            cells |= {c for c in piece.shape.cells if board.is_floor(c) and not board.blocks_movement(c)}
    return cells


# The start rules an edition chooses from (Edition.start): start area -> the cells heroes start on.
START_RULES = {"glyph": glyph_start, "entrance": entrance_start}


# Analyses a board keeps (QuestBoard.memo), the newest last: the language server checks after
# every keystroke, and most edits change nothing the fixed point reads.
ANALYSES_KEPT = 4


def analyse(model: QuestModel, quest_board: QuestBoard, scenario: Scenario = NO_SCENARIO) -> Analysis:
    """The reveal fixed point of a quest on its board; worked out again only when something it
    reads has changed since the board last answered (`analysis_key`: not the text's positions,
    names for players or texts to read). The Analysis is shared: nobody changes it."""
    key = ("reveal", analysis_key(model, scenario))
    memo = quest_board.memo
    found = memo.pop(key, None)
    if found is None:
        found = _analyse(model, quest_board, scenario)
        while len(memo) >= ANALYSES_KEPT:
            memo.pop(next(iter(memo)))
    memo[key] = found
    assert isinstance(found, Analysis)
    return found


def analysis_key(model: QuestModel, scenario: Scenario) -> tuple[object, ...]:
    """Everything of a quest the fixed point reads besides its board (which holds the pieces'
    floor, walls, doors' edges, stairs and obstacles), without positions in the text."""
    return (
        model.reveal,
        model.edition.start,
        model.edition.sight,
        scenario,
        tuple((a.id, a.start, a.pieces, a.cells) for a in model.areas.values()),
        tuple((d.id, d.rune, d.between, d.at, d.side) for d in model.doors.values()),
        tuple((p.id, p.type.kind, p.shape.cells) for p in model.pieces.values() if p is not None),
        tuple((s.colour, s.ends) for s in model.stairs),
        tuple((m.kind, m.at, m.variant, m.active) for m in model.markers),
        tuple((h.at, h.area) for h in model.hero_starts),
        tuple((f.named, f.cells) for f in model.figures if f.named is not None),
        tuple((g.id, g.kind, g.cells) for g in model.groups.values()),
        tuple(sorted(model.roles.items())),
        tuple((e.id, e.at, _plain(e.node.effects)) for e in model.encounters.values()),
        _plain(tuple(model.triggers)),
    )


def _plain(value: object) -> object:
    """A syntax node's values, hashable, without its spans (an edit above it moves them)."""
    if isinstance(value, Span):
        return None
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(_plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    return value


def _analyse(model: QuestModel, quest_board: QuestBoard, scenario: Scenario) -> Analysis:
    board = quest_board.board
    areas = model.areas
    cell_area: dict[Cell, str] = {}
    for area in areas.values():
        for cell in area.cells:
            cell_area.setdefault(cell, area.id)
    doors = {d: model.doors[d] for d in quest_board.door_edges}
    start = [a.id for a in areas.values() if a.start]
    wave_of: dict[str, int | None] = {a: None for a in areas}
    seen_from: dict[str, set[str]] = {a: set() for a in areas}
    waves: list[list[str]] = []
    mode = model.reveal
    if mode == "all" or not start:
        first = list(areas) if mode == "all" else []
        for a in first:
            wave_of[a] = 0
        if first:
            waves.append(sorted(first))
    else:
        wave_of[start[0]] = 0
        waves.append([start[0]])
    start_cells = hero_start_cells(model, board, start[0] if start else None)
    reached: frozenset[Cell] = frozenset()
    unlocked: set[str] = set(scenario.unlocked)
    forced_open: set[str] = set()
    opened: set[str] = set()
    passable: frozenset[str] = frozenset()
    revealed: set[str] = {a for a, w in wave_of.items() if w is not None}
    reached_by_wave: list[frozenset[Cell]] = []
    stair_ends = sorted({end for stair in board.stairs for end in stair.ends})
    cells_of_area: dict[str, list[Cell]] = {}
    for cell, area_id in cell_area.items():
        cells_of_area.setdefault(area_id, []).append(cell)
    allowed: frozenset[Cell] = frozenset()
    wave = 0
    while True:
        # Reach, unlocking colours and opening doors as far as this wave's areas allow.
        allowed = allowed.union(*(cells_of_area.get(a, ()) for a in (waves[-1] if waves else ())))
        effect_reveals: set[str] = set()
        while True:
            passable = frozenset(
                d for d, door in doors.items() if door.rune is None or door.rune in unlocked or d in forced_open
            )
            usable = {
                s.colour
                for s in model.stairs
                if cell_area.get(s.ends[0]) in revealed and cell_area.get(s.ends[1]) in revealed
            }
            reached = frozenset(board.reachable(start_cells, allowed, passable, usable))
            opened = {d for d in passable if any(c in reached for c in quest_board.door_cells[d])}
            before = (len(unlocked), len(forced_open))
            for marker in model.markers:
                if (
                    marker.kind == "runekey"
                    and marker.variant is not None
                    and marker.at in reached
                    and marker.variant not in scenario.locked
                ):
                    unlocked.add(marker.variant)
            for effect in effects_of(model, reached, revealed, opened):
                if isinstance(effect, n.UnlockEffect) and effect.colour.value not in scenario.locked:
                    unlocked.add(effect.colour.value)
                elif isinstance(effect, n.DoorEffect) and effect.action == "open" and effect.door.value in doors:
                    forced_open.add(effect.door.value)
                elif isinstance(effect, n.RevealEffect) and effect.area.value in areas:
                    effect_reveals.add(effect.area.value)
            if (len(unlocked), len(forced_open)) == before:
                break
        reached_by_wave.append(reached)
        # What the heroes reveal from where they can stand.
        new: dict[str, set[str]] = {}
        if mode == "sight":
            # What the heroes see of the areas not yet revealed: sight is symmetric and
            # never leaves its region of floor, so it is what the cells of those areas in
            # the reached cells' region see of the reached cells (one cast from that
            # frontier, not from every reached cell), and what the stair ends they reach
            # see. An area seen is seen from the areas of the reached cells it sees.
            frontier: dict[str, list[Cell]] = {}
            for cell in board.region(reached, opened, leaving_out=allowed):
                if cell in cell_area:
                    frontier.setdefault(cell_area[cell], []).append(cell)
            seen_by = board.labels_seen(frontier, reached, cell_area, model.edition.sight, opened)
            targets = {a for a, seen in seen_by.items() if seen}
            for end in stair_ends:
                if end in reached:
                    targets |= {cell_area[c] for c in board.stair_sight(end, opened) if c in cell_area}
            for target in sorted(targets - revealed):
                target_cells = [c for c in areas[target].cells if board.is_floor(c)]
                if all(cell_area[c] == target for c in target_cells):
                    # Its cells outside the region see no reached cell (but by stairs).
                    sources = set(seen_by.get(target, ()))
                    for cell in target_cells:
                        if cell in stair_ends:
                            sources |= {cell_area[c] for c in board.stair_sight(cell, opened) & reached}
                else:  # cells it shares with another area are grouped there: ask for all of its own
                    back = board.visible_cells(target_cells, model.edition.sight, opened, stairs=True) & reached
                    sources = {cell_area[c] for c in back}
                # Stairs sight is one-way from a stair end; keep the area seen even if
                # the symmetric query misses it.
                new[target] = sources or {
                    cell_area[c]
                    for c in reached
                    if any(cell_area.get(t) == target for t in board.stair_sight(c, opened))
                }
        elif mode == "door":
            for d in sorted(opened):
                for cell in quest_board.door_cells[d]:
                    behind = cell_area.get(cell)
                    if behind is not None and behind not in revealed:
                        sources = {cell_area[c] for c in quest_board.door_cells[d] if c in reached}
                        new.setdefault(behind, set()).update(sources)
            for cell in reached:
                for step in board.steps_from(cell, passable):
                    beyond = cell_area.get(step)
                    if beyond is not None and beyond not in revealed:
                        new.setdefault(beyond, set()).add(cell_area[cell])
        for target in effect_reveals - revealed:
            new.setdefault(target, set()).add("effect")
        if not new:
            break
        wave += 1
        for target, sources in new.items():
            wave_of[target] = wave
            seen_from[target] = sources
        revealed |= set(new)
        waves.append(sorted(new))
    return Analysis(
        reveal_wave=wave_of,
        visible_from={a: sorted(s) for a, s in seen_from.items()},
        waves=waves,
        reached=reached,
        unlocked=frozenset(unlocked),
        passable=passable,  # the inner loop ends only once no colour or door was added since
        opened_doors=frozenset(opened),
        scenario=scenario,
        reached_by_wave=tuple(reached_by_wave),
    )
