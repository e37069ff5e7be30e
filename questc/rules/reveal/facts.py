"""The reveal rules' shared facts: which rune doors never open, and the analysis as if they did.

Causes before consequences: a rune door that guards its own key (Q303) or has no key
at all (Q304) is reported once, and everything behind it is checked against a "what
if that colour opened" analysis (`hopeful`), so the areas, markers and victories it
hides are not reported again as Q301/Q302/Q307.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from questc.analysis import Analysis, Scenario, analyse
from questc.diagnostics.core import Span
from questc.model.quest import EncounterModel
from questc.records import record
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.model.quest import DoorModel, QuestModel
    from questc.rules.context import CheckContext

# (where it is written, what it is in words, the cell it lies on or None)
Source = tuple[Span, str, Any]


@record
class RuneDoors:
    """The rune doors the heroes can never pass, and what could open them."""

    shut: list[DoorModel]  # rune doors of colours never unlocked, no effect opening them
    hopeful: Analysis  # the reveal analysis with every such colour unlocked
    unlockers: dict[str, list[Source]]  # colour -> runekeys and `unlock` effects
    openers: dict[str, list[Source]]  # door id -> `open DOOR` effects

    def sources(self, door: DoorModel) -> list[Source]:
        """What could open `door`: keys and unlocks of its colour, `open` effects naming it."""
        unlocks = self.unlockers.get(door.rune, []) if door.rune is not None else []
        return unlocks + self.openers.get(door.id, [])


def rune_doors(context: CheckContext) -> RuneDoors:
    """The quest's RuneDoors, made once and shared by the reveal rules."""
    return context.shared(_rune_doors)


def _rune_doors(context: CheckContext) -> RuneDoors:
    model, quest_board, analysis = context.model, context.quest_board, context.analysis
    doors = [model.doors[d] for d in quest_board.door_edges if model.doors[d].rune]
    # analysis.passable holds the doors of unlocked colours and those an effect the heroes can run opens.
    shut = [d for d in doors if d.id not in analysis.passable]
    locked = sorted({d.rune for d in shut if d.rune is not None})
    hopeful = analyse(model, quest_board, Scenario(unlocked=frozenset(locked))) if locked else analysis
    return RuneDoors(shut, hopeful, unlock_sources(model), open_sources(model))


Cell = tuple[int, int]


def area_span(model: QuestModel, area_id: str) -> Span:
    return model.areas[area_id].node.id.span


def _effects_at(model: QuestModel) -> list[tuple[n.Effect, Cell | None]]:
    """Every effect with the cell that runs it: an encounter's marker, else None (an `on` block)."""
    return [(effect, source.at if isinstance(source, EncounterModel) else None) for effect, source in model.effects()]


def open_sources(model: QuestModel) -> dict[str, list[Source]]:
    """door id -> [(span, what, cell or None)]: the quest's `open DOOR` effects."""
    found: dict[str, list[Source]] = {}
    for effect, cell in _effects_at(model):
        if isinstance(effect, n.DoorEffect) and effect.action == "open":
            door = effect.door.value
            found.setdefault(door, []).append((effect.span, f"`open {door}` effect", cell))
    return found


def unlock_sources(model: QuestModel) -> dict[str, list[Source]]:
    """colour -> [(span, what, cell or None)]: runekeys and `unlock` effects of the quest."""
    found: dict[str, list[Source]] = {}
    for marker in model.markers:
        if marker.kind == "runekey":
            found.setdefault(marker.variant or "", []).append((marker.span, "runekey", marker.at))
    for effect, cell in _effects_at(model):
        if isinstance(effect, n.UnlockEffect):
            found.setdefault(effect.colour.value, []).append((effect.span, "unlock effect", cell))
    return found


def atom_area(atom: n.EventCondition, model: QuestModel) -> str | None:
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
