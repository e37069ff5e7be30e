"""Q3xx: what the reveal fixed point (questc.analysis) says can never happen.

Causes before consequences: a rune door that guards its own key (Q303) or has no
key at all (Q304) is reported once, and everything behind it is checked against a
"what if that colour opened" analysis, so the areas, markers and victories it hides
are not reported again as Q301/Q302/Q307.
"""
from __future__ import annotations

from questc.analysis import Scenario, analyse, named_reachable
from questc.analysis.reveal import hero_start_cells
from questc.diagnostics.codes import q3xx
from questc.diagnostics.core import Diagnostic, Label, Span
from questc.syntax import nodes as n

_MARKER_WORDS = {"chest": "chest", "glyph": "glyph", "encounter": "encounter", "runekey": "runekey",
                 "relic": "relic", "treasure": "treasure"}


def run(context) -> list[Diagnostic]:
    model, quest_board, analysis = context.model, context.board, context.analysis
    if not model.start_areas:
        return []   # Q209 says why; without a start nothing can be revealed
    out: list[Diagnostic] = []
    rune_out, hopeful = rune_doors(model, quest_board, analysis)
    out += rune_out
    out += areas_never_revealed(model, analysis, hopeful)
    out += markers_out_of_reach(model, analysis, hopeful)
    out += area_visible_from_start(model, quest_board)
    out += floor_out_of_reach(model, quest_board, analysis)
    out += victory_impossible(model, quest_board, analysis, hopeful)
    out += stairs_around_rune_doors(model, quest_board, analysis)
    out += reveal_order(model, analysis)
    return out


def _area_span(model, area_id: str) -> Span:
    return model.areas[area_id].node.id.span


# Q303, Q304 --------------------------------------------------------------------------
def rune_doors(model, quest_board, analysis):
    """Q303 / Q304: rune doors that can never open, and the analysis as if they could.

    What it does: for every rune door the heroes can never pass (its colour never
    unlocked, and no `open DOOR` effect they can run opens it), looks for a way to
    open it (a runekey, an `unlock` effect, an `open` effect for that door). With
    none: Q304. With one that is reachable only once that colour (or a cycle of
    locked colours) is open: Q303.
    Why it matters: the door never opens, and with it everything behind it is lost.
    Returns the diagnostics and the "hopeful" analysis with every such colour
    unlocked, which the other checks use to tell causes from consequences.
    """
    out: list[Diagnostic] = []
    doors = [model.doors[d] for d in quest_board.door_edges if model.doors[d].rune]
    # analysis.passable holds the doors of unlocked colours and those an effect the heroes can run opens.
    shut = [d for d in doors if d.id not in analysis.passable]
    locked = sorted({d.rune for d in shut})
    if not locked:
        return out, analysis
    hopeful = analyse(model, quest_board, Scenario(unlocked=frozenset(locked)))
    unlockers = _unlock_sources(model)
    openers = _open_sources(model)
    for colour in locked:
        for door in (d for d in shut if d.rune == colour):
            sources = unlockers.get(colour, []) + openers.get(door.id, [])
            if not sources:
                out.append(q3xx.Q304.at(door.node.id.span, colour=colour, door=door.id))
                continue
            # Every key of this colour (and every effect opening this door) is reachable only
            # with a locked colour open: it sits behind this door, or behind a cycle of rune doors.
            labels = []
            for span, what, _ in sources:
                noun = what if what.startswith("`") else f"{colour} {what}"
                labels.append(Label(span, f"the only {noun} is behind it" if len(sources) == 1
                                    else f"a {noun} behind it"))
            out.append(q3xx.Q303.at(door.node.id.span, colour=colour, door=door.id, labels=labels))
    return out, hopeful


def _open_sources(model):
    """door id -> [(span, what, cell or None)]: the quest's `open DOOR` effects."""
    found: dict[str, list] = {}
    effects = [(e, enc.at) for enc in model.encounters.values() for e in enc.node.effects]
    effects += [(e, None) for t in model.triggers for e in t.effects]
    for effect, cell in effects:
        if isinstance(effect, n.DoorEffect) and effect.action == "open":
            door = effect.door.value
            found.setdefault(door, []).append((effect.span, f"`open {door}` effect", cell))
    return found


def _unlock_sources(model):
    """colour -> [(span, what, cell or None)]: runekeys and `unlock` effects of the quest."""
    found: dict[str, list] = {}
    for marker in model.markers:
        if marker.kind == "runekey":
            found.setdefault(marker.variant, []).append((marker.span, "runekey", marker.at))
    effects = [(e, enc.at) for enc in model.encounters.values() for e in enc.node.effects]
    effects += [(e, None) for t in model.triggers for e in t.effects]
    for effect, cell in effects:
        if isinstance(effect, n.UnlockEffect):
            found.setdefault(effect.colour.value, []).append((effect.span, "unlock effect", cell))
    return found


# Q301 ---------------------------------------------------------------------------------
def areas_never_revealed(model, analysis, hopeful):
    """Q301: areas with no reveal wave, unless only a locked rune door (Q303/Q304) hides them.

    Victory conditions that need the area (revealed, or a named monster or encounter
    in it) are labelled here rather than reported again as Q307.
    """
    out = []
    for area_id, wave in analysis.reveal_wave.items():
        if wave is not None or hopeful.reveal_wave.get(area_id) is not None:
            continue
        labels = [Label(atom.target.span, "so this victory can never come true")
                  for victory in model.victories for atom in n.event_conditions(victory.when)
                  if _atom_area(atom, model) == area_id]
        out.append(q3xx.Q301.at(_area_span(model, area_id), area=area_id, labels=labels,
                                help_text="join it to the map: an opening, a door or a staircase "
                                          "into a revealed area"))
    return out


def _atom_area(atom: n.EventCondition, model) -> str | None:
    """The area a victory atom's target lies in (None for doors: they stand between areas)."""
    target = atom.target.value
    if atom.event == "revealed":
        return target
    if atom.event == "killed":
        return next((f.area for f in model.figures if f.named == target), None)
    if atom.event == "triggered":
        encounter = model.encounters.get(target)
        return encounter.area if encounter else None
    return None


# Q302 ---------------------------------------------------------------------------------
def markers_out_of_reach(model, analysis, hopeful):
    """Q302: markers in revealed areas on cells no hero can walk to.

    Markers in areas never revealed are Q301's (or Q303's) cause already.
    """
    out = []
    revealed = analysis.revealed
    for marker in model.markers:
        if marker.area not in revealed or marker.at in analysis.reached or marker.at in hopeful.reached:
            continue
        if model.area_of(marker.at) != marker.area:
            continue   # Q204 reports a marker outside its area
        what = _MARKER_WORDS.get(marker.kind, marker.kind)
        if marker.variant and marker.kind in ("chest", "treasure", "runekey"):
            what = f"{marker.variant} {what}"
        out.append(q3xx.Q302.at(marker.span, thing=what, x=marker.at[0], y=marker.at[1],
                                help_text="move it to a cell the heroes can walk to, or clear a path "
                                          "(obstacles that block movement, walls)"))
    for victory in model.victories:
        for target in (a.target for a in n.event_conditions(victory.when, negated=False)
                       if a.event == "killed"):
            named = model.named.get(target.value)
            if named is None or not named.placements:
                continue
            figure_area = next((f.area for f in model.figures if f.named == named.id), None)
            if figure_area not in revealed:
                continue
            if named_reachable(model, named.id, analysis.reached) or named_reachable(model, named.id, hopeful.reached):
                continue
            place = named.placements[0]
            out.append(q3xx.Q302.at(place.at.span, thing=f"named monster `{named.id}`",
                                    x=place.at.x, y=place.at.y, labels=[Label(target.span, "the heroes must kill it")],
                                    help_text="leave a cell next to it that the heroes can walk to"))
    return out


# Q305 ---------------------------------------------------------------------------------
def area_visible_from_start(model, quest_board):
    """Q305: areas seen from the start area with every door closed (before the first turn)."""
    if model.reveal != "sight":
        return []
    start = model.start_areas[0]
    board = quest_board.board
    walkable = board.reachable(hero_start_cells(model, board, start.id), start.cells)
    seen = board.visible_cells(walkable or start.cells, model.edition, frozenset(), stairs=True)
    out = []
    flagged = set()
    for cell in sorted(seen):
        area = model.area_of(cell)
        if area is None or area == start.id or area in flagged:
            continue
        flagged.add(area)
        out.append(q3xx.Q305.at(_area_span(model, area), area=area, start=start.id,
                                labels=[Label(start.node.id.span, "the start area")]))
    return out


# Q306 ---------------------------------------------------------------------------------
def floor_out_of_reach(model, quest_board, analysis):
    """Q306: floor cells of revealed areas that no hero can walk to (blocking obstacles' own cells excepted)."""
    board = quest_board.board
    marked = {m.at for m in model.markers}   # a marker out of reach is Q302's, not counted again
    out = []
    for area_id in sorted(analysis.revealed):
        area = model.areas[area_id]
        lost = sorted(c for c in area.cells
                      if board.is_floor(c) and c not in analysis.reached and not board.blocks_movement(c)
                      and not board.is_wall_like(c) and c not in marked)
        if not lost:
            continue
        where = ", ".join(f"{x},{y}" for x, y in lost[:4]) + (" ..." if len(lost) > 4 else "")
        out.append(q3xx.Q306.at(area.node.id.span, count=len(lost), cells="cell" if len(lost) == 1 else "cells",
                                area=area_id, where=where))
    return out


# Q307 ---------------------------------------------------------------------------------
def victory_impossible(model, quest_board, analysis, hopeful):
    """Q307: victory conditions that can never become true (and not because of a Q303/Q304 door)."""
    out = []
    for victory in model.victories:
        if _possible(victory.when, model, analysis) or _possible(victory.when, model, hopeful):
            continue
        for atom in _impossible_atoms(victory.when, model, analysis):
            area = _atom_area(atom, model)
            if area is not None:
                # A sealed area (Q301) or an unreachable marker or monster (Q302) is the
                # cause, reported there with this condition as a label.
                continue
            reason, help_text = _why(atom, model)
            out.append(q3xx.Q307.at(atom.target.span, reason=reason, help_text=help_text,
                                    labels=[Label(victory.side.span, f"the {victory.side.value}' victory")]))
    return out


def _atom_possible(atom: n.EventCondition, model, analysis) -> bool:
    target = atom.target.value
    if atom.event == "killed":
        return named_reachable(model, target, analysis.reached)
    if atom.event == "revealed":
        return analysis.reveal_wave.get(target) is not None
    if atom.event == "triggered":
        encounter = model.encounters.get(target)
        return encounter is not None and encounter.at in analysis.reached
    if atom.event == "opened":
        return target in analysis.opened_doors
    return True


def _possible(condition, model, analysis) -> bool:
    if isinstance(condition, n.EventCondition):
        return _atom_possible(condition, model, analysis)
    if isinstance(condition, n.AllCondition):
        return all(_possible(c, model, analysis) for c in condition.operands)
    if isinstance(condition, n.AnyCondition):
        return any(_possible(c, model, analysis) for c in condition.operands)
    return True   # negations and counters can always come true


def _impossible_atoms(condition, model, analysis):
    return [atom for atom in n.event_conditions(condition, negated=False)
            if not _atom_possible(atom, model, analysis)]


def _why(atom: n.EventCondition, model) -> tuple[str, str]:
    target = atom.target.value
    if atom.event == "killed":
        return (f"no hero can reach `{target}`", f"place `{target}` where the heroes can walk next to it")
    if atom.event == "revealed":
        return (f"area `{target}` is never revealed", f"join `{target}` to the map the heroes explore")
    if atom.event == "triggered":
        return (f"no hero can reach the encounter `{target}`", f"move `{target}` onto a cell the heroes reach")
    return (f"no hero can ever open the door `{target}`", f"make the door `{target}` reachable and passable")


# Q308 ---------------------------------------------------------------------------------
def stairs_around_rune_doors(model, quest_board, analysis):
    """Q308: rune doors whose far side the heroes reach without the key, by way of stairs."""
    if not model.stairs:
        return []
    board = quest_board.board
    revealed_cells = frozenset(c for a in analysis.revealed for c in model.areas[a].cells)
    start_cells = hero_start_cells(model, board, model.start_areas[0].id)
    out = []
    for door_id in sorted(quest_board.door_edges):
        door = model.doors[door_id]
        if not door.rune:
            continue
        passable = frozenset(d for d in quest_board.door_edges
                             if model.doors[d].rune is None or model.doors[d].rune != door.rune)
        with_stairs = board.reachable(start_cells, revealed_cells, passable, True)
        without = board.reachable(start_cells, revealed_cells, passable, None)
        beside = quest_board.door_cells[door_id]
        if all(any(c in with_stairs for c in side) for side in _sides(beside, quest_board, door_id)) and \
                not all(any(c in without for c in side) for side in _sides(beside, quest_board, door_id)):
            for stairs in model.stairs:
                if any(end in with_stairs for end in stairs.ends):
                    out.append(q3xx.Q308.at(stairs.node.colour.span, colour=stairs.colour, door=door_id,
                                            labels=[Label(door.node.id.span, "the rune door")]))
                    break
    return out


def _sides(cells, quest_board, door_id):
    """The door's four neighbouring cells split into its two sides."""
    (x1, y1, x2, y2) = quest_board.door_edges[door_id][0]
    if y1 == y2:   # horizontal door: north side and south side
        return ([c for c in cells if c[1] < y1], [c for c in cells if c[1] >= y1])
    return ([c for c in cells if c[0] < x1], [c for c in cells if c[0] >= x1])


# Q309 ---------------------------------------------------------------------------------
def reveal_order(model, analysis):
    """Q309 (info): one line per wave: its areas and where each is first seen from."""
    out = []
    span = model.header_span()
    for number, areas in enumerate(analysis.waves):
        parts = []
        for area_id in areas:
            name = model.areas[area_id].name
            sources = [s for s in analysis.visible_from.get(area_id, []) if s != area_id]
            parts.append(f"{area_id} ({name})" + (f" from {', '.join(sources)}" if sources else ""))
        out.append(q3xx.Q309.at(span, wave=number, areas="; ".join(parts)))
    return out
