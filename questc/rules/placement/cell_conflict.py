"""Q207 cell-conflict: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.model.quest import TOKEN_KINDS, ObstacleModel
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import WIN, hall
from questc.rules.placement.facts import Cell, figure_name, fmt, fmt_cells, marker_name, placement_facts
from questc.rules.placement.suggest import figure_spot, move_fix, spawn_spot

Q207 = Descriptor(
    code="Q207",
    name="cell-conflict",
    severity=Severity.ERROR,
    template="{thing} at {where} {problem}",
    label_template="{label}",
    summary="Two things in one cell that cannot share it.",
    explanation="""
Some things cannot stand in the same space: a figure on an obstacle that blocks
movement (rubble, water, a boulder), two figures, a chest or other marker the heroes
must reach on such an obstacle, a monster on an active glyph (monsters may never end
a move on one, so none can be placed there), or two obstacles in one space. Figures
kept only for player counts that never meet (`players 2..3` and `players 4..5`) may
share a space.
""",
    example=Example(failing=hall("  monster skeleton at 0,0\n") + WIN, fixed=hall("  monster skeleton at 2,2\n") + WIN),
    fields=("thing", "where", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q207: two things in one cell that cannot share it.

    Reports, at the later thing's point with a label on the earlier: a
    small figure on an obstacle that blocks movement (a large one is Q208's), two
    figures whose footprints meet (unless their `players` ranges never meet), a small
    figure a `spawn` effect places on such an obstacle, a marker
    (chest, glyph, runekey, ...) on an obstacle that blocks movement, a monster on an
    active glyph, and two obstacles or traps in one cell. Things already misplaced
    (Q204, Q208) are skipped. The help names the nearest free cell.
    """
    facts = placement_facts(context)
    model = facts.model
    quest_players = model.players
    out = []
    figures = [(i, f) for i, f in enumerate(model.figures) if i not in facts.figure_problem]
    markers = [m for i, m in enumerate(model.markers) if i not in facts.misplaced_markers]
    obstacles = [o for i, o in enumerate(model.obstacles) if i not in facts.misplaced_obstacles]

    def help_for(area: str, near: Cell, figure) -> dict:
        """The help naming the nearest free cell, and the fix moving the figure there."""
        spot = figure_spot(facts, figure) if figure.type.large else facts.free_cell(area, near)
        if spot is None:
            return {"help": "move one of them to a free cell"}
        return {
            "help": f"move it to a free cell, such as {fmt(spot)}",
            "fixes": move_fix(
                facts, figure.span, spot, f"the {figure_name(figure)}", figure.type.cells(spot, figure.facing)
            ),
        }

    # Figures: on blocking obstacles, on each other, on active glyphs.
    for index, (_i, figure) in enumerate(figures):
        name = figure_name(figure)
        if not figure.type.large:
            blocker = facts.blocker(figure.at)
            if blocker is not None:
                out.append(
                    Q207.at(
                        figure.span,
                        thing=name,
                        where=fmt(figure.at),
                        problem=f"stands on {blocker.kind.name}, which blocks movement",
                        label="cannot stand here",
                        labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                        **help_for(figure.area, figure.at, figure),
                    )
                )
        for _j, earlier in figures[:index]:
            shared = figure.cells & earlier.cells
            if shared and players_meet(figure.players, earlier.players, quest_players):
                out.append(
                    Q207.at(
                        figure.span,
                        thing=name,
                        where=fmt(figure.at),
                        problem=f"shares {fmt_cells(shared)} with the {figure_name(earlier)} at {fmt(earlier.at)}",
                        label="two figures in one space",
                        labels=[Label(earlier.span, "the other figure")],
                        **help_for(figure.area, figure.at, figure),
                    )
                )
                break
        for marker in markers:
            if marker.kind == "glyph" and marker.active and marker.at in figure.cells:
                out.append(
                    Q207.at(
                        figure.span,
                        thing=name,
                        where=fmt(figure.at),
                        problem=f"stands on the active glyph at {fmt(marker.at)}",
                        label="monsters may not be placed on an active glyph",
                        labels=[Label(marker.span, "active glyph here")],
                        **help_for(figure.area, figure.at, figure),
                    )
                )
    # Markers on obstacles that block movement: heroes could never reach them.
    for marker in markers:
        blocker = facts.blocker(marker.at)
        if blocker is not None and marker.kind not in TOKEN_KINDS:  # tokens: Q212
            spot = facts.free_cell(marker.area, marker.at)
            out.append(
                Q207.at(
                    marker.span,
                    thing=marker_name(marker),
                    where=fmt(marker.at),
                    problem=f"lies on {blocker.kind.name}, which blocks movement",
                    label="no hero can step here",
                    labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                    help=f"move the {marker.kind} off the {blocker.kind.name}"
                    + (f", such as to {fmt(spot)}" if spot else ""),
                    fixes=move_fix(facts, marker.span, spot, f"the {marker_name(marker)}") if spot else (),
                )
            )
    # Spawned small figures on obstacles that block movement (large ones are Q208's).
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if found and found[0] == "Q207":
            blocker = found[1]
            spot = spawn_spot(facts, spawn)
            out.append(
                Q207.at(
                    spawn.span,
                    thing=spawn.name,
                    where=fmt(spawn.at),
                    problem=f"would stand on {blocker.kind.name}, which blocks movement",
                    label="cannot stand here",
                    labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                    help=f"spawn it off the {blocker.kind.name}, such as at {fmt(spot)}"
                    if spot
                    else "spawn it on a cell with no blocking obstacle",
                    fixes=move_fix(facts, spawn.span, spot, f"the {spawn.name}", spawn.type.cells(spot))
                    if spot
                    else (),
                )
            )
    # Two obstacles or traps in one cell: only the first would count on the board.
    seen: dict[Cell, ObstacleModel] = {}
    for obstacle in obstacles:
        clash = None
        for cell in dict.fromkeys(obstacle.cells):
            if cell in seen and seen[cell] is not obstacle and clash is None:
                clash = (cell, seen[cell])
            seen.setdefault(cell, obstacle)
        if clash:
            cell, other = clash
            out.append(
                Q207.at(
                    obstacle.span,
                    thing=obstacle.kind.name,
                    where=fmt_cells(obstacle.cells),
                    problem=f"covers {fmt(cell)}, which already holds {other.kind.name}",
                    label="two obstacles in one space",
                    labels=[Label(other.span, f"{other.kind.name} here")],
                    help="put each obstacle or trap on cells of its own",
                )
            )
    return out


def players_meet(a: tuple[int, int] | None, b: tuple[int, int] | None, quest: tuple[int, int]) -> bool:
    """Do two figures' player-count ranges (None: the quest's own) share a count?"""
    a, b = a or quest, b or quest
    return max(a[0], b[0]) <= min(a[1], b[1])


RULE = Rule(
    Q207,
    find,
    examples=(
        Example(  # second edition: two monsters on one space
            failing=second_examples.second("  monster zombie at 0,0\n  monster goblin_archer at 0,0\n"),
            fixed=second_examples.second("  monster zombie at 0,0\n  monster goblin_archer at 1,0\n"),
        ),
    ),
)
