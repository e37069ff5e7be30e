"""Q507 conquest-on-the-map: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.records import record
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.examples import HEAD, quest
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.model.quest import QuestModel

Q507 = Descriptor(
    code="Q507",
    name="conquest-on-the-map",
    severity=Severity.INFO,
    template="the heroes start with {start} conquest and can gain up to {available} {where}{detail}",
    label_template="{start} at the start",
    help_template="the heroes lose a hero's conquest value (2 to 4) when he dies and 3 each time the overlord's "
    "deck runs out: weigh that against the {available} the map gives",
    summary="The conquest the heroes can gain on the map against what they start with.",
    explanation="""
Conquest is the heroes' life line: at 0 the overlord wins. This note sums what the map
gives: 3 for each glyph not active at the start (activating it), the chest chart's
conquest (for each chest type, its best rows, one per chest of the type placed), the
`conquest +N` of encounters and of `on` triggers, and named monsters' conquest. Losses
are left out: it is what the heroes *can* gain.

When the reveal analysis is available, only what the heroes can reach counts (markers
on reached cells, named monsters standing on or next to one, triggers of areas they
can reveal); otherwise the whole map counts, and the message says so.
""",
    # A note, not a fault: the "fixed" quest shows the same note with a safer start.
    example=Example(
        failing=quest(area_lines="  glyph at 2,2\n"),
        fixed=quest(HEAD.replace("conquest 3", "conquest 5"), area_lines="  glyph at 2,2\n"),
    ),
    fields=("start", "available", "where", "detail"),
    fixed_example_silences=False,
)


GLYPH_CONQUEST = 3  # heroes gain 3 conquest for each glyph they activate


@record
class Reach:
    """What the reveal analysis says the heroes can get to: cells, revealed areas and opened doors."""

    cells: frozenset[tuple[int, int]]
    areas: frozenset[str]
    doors: frozenset[str]


def reach_of(context: CheckContext) -> Reach | None:
    """The heroes' reach from the context's reveal analysis, or None when there is none to ask."""
    try:
        analysis = context.analysis
    except Exception:  # noqa: BLE001 - see below
        # The phase runner skips the reveal checks on a map with placement errors;
        # the analysis of such a map may fail. Those errors are reported already, and
        # this note then falls back to the whole map, as it says.
        return None
    return Reach(frozenset(analysis.reached), frozenset(analysis.revealed), frozenset(analysis.opened_doors))


def find(context: CheckContext) -> list[Diagnostic]:
    """Q507: the conquest on the map (reachable parts only, when the analysis says what they are)."""
    return conquest_available(context.model, reach_of(context))


def conquest_available(model: QuestModel, reach: Reach | None) -> list[Diagnostic]:
    """The Q507 report for the heroes' `reach` (None: the whole map counts)."""
    if model.conquest is None or model.conquest < 1:
        return []  # Q506 says what is wrong; there is nothing to weigh the map against
    parts = conquest_gains(model, reach)
    available = sum(parts.values())
    detail = ", ".join(f"{word} {value}" for word, value in parts.items() if value)
    where = "on the map" if reach is None else "where they can reach"
    return [
        Q507.at(
            model.header_span("conquest"),
            start=model.conquest,
            available=available,
            where=where,
            detail=f" ({detail})" if detail else "",
        )
    ]


def conquest_gains(model: QuestModel, reach: Reach | None) -> dict[str, int]:
    """The most conquest the heroes can gain, by source (glyphs, chests, encounters, triggers,
    named monsters), within `reach` (None: the whole map)."""
    reached = reach.cells if reach is not None else None

    def reachable(cell: tuple[int, int]) -> bool:
        return reached is None or cell in reached

    def named_reachable(named_id: str) -> bool:
        if reached is None:
            return True
        for figure in model.figures:
            if figure.named == named_id:
                # Heroes attack from a cell next to it; figures never block the analysis.
                return any(
                    (x + dx, y + dy) in reached for x, y in figure.cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                )
        return False

    parts = {"glyphs": 0, "chests": 0, "encounters": 0, "triggers": 0, "named monsters": 0}
    parts["glyphs"] = GLYPH_CONQUEST * sum(
        1 for m in model.markers if m.kind == "glyph" and not m.active and reachable(m.at)
    )
    chests: dict[str, int] = defaultdict(int)
    for marker in model.markers:
        if marker.kind == "chest" and marker.variant is not None and reachable(marker.at):
            chests[marker.variant] += 1
    by_type: dict[str, list[int]] = defaultdict(list)
    for row in model.chest_chart.rows if model.chest_chart is not None else ():
        by_type[row.kind.value].append(sum(c.amount for c in row.contents if c.kind == "conquest"))
    for chest, count in chests.items():
        # Which numbered marker lies where is random: the best `count` rows are the most they can gain.
        parts["chests"] += sum(sorted(by_type[chest], reverse=True)[:count])
    for effect, source in model.effects():
        if isinstance(source, n.Trigger):
            if _trigger_reachable(model, source, reach, named_reachable):
                parts["triggers"] += _gains([effect])
        elif reachable(source.at):
            parts["encounters"] += _gains([effect])
    for named in model.named.values():
        if named.node.conquest and named_reachable(named.id):
            parts["named monsters"] += max(named.node.conquest, 0)
    return parts


def _gains(effects: Iterable[n.Effect]) -> int:
    """The conquest effects' gains (losses are left out: this counts what the heroes can gain)."""
    return sum(e.amount for e in effects if isinstance(e, n.ConquestEffect) and e.amount > 0)


def _trigger_reachable(model, trigger: n.Trigger, reach: Reach | None, named_reachable) -> bool:
    if reach is None or trigger.event == "round":
        return True
    target = trigger.target.value if trigger.target is not None else None
    if trigger.event == "killed":
        return named_reachable(target)
    if trigger.event == "reveal":
        return target in reach.areas
    if trigger.event == "open":
        return target in reach.doors
    return True


RULE = Rule(Q507, find, needs={"conquest"})
