"""Q204 placed-outside-area: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Fix, Severity, Span
from questc.model.quest import TOKEN_KINDS
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD
from questc.rules.placement.facts import Cell, Facts, figure_name, fmt, fmt_cells, marker_name, placement_facts
from questc.rules.placement.suggest import figure_spot, misplaced_piece_under, move_fix, spawn_spot
from questc.syntax import nodes as n

Q204 = Descriptor(
    code="Q204",
    name="placed-outside-area",
    severity=Severity.ERROR,
    template="{thing} at {where} is {problem}",
    label_template="{label}",
    summary="Something placed off the map, or on a cell outside its own area.",
    explanation="""
Everything written inside an area's block (glyphs, monsters, chests, obstacles, traps,
treasure, relics, runekeys, encounters) must lie on that area's own floor cells: the
overlord sets an area up when it is revealed, and a thing outside the area would be
set up too early, too late, or off the map entirely. Every cell of a large figure's
footprint counts. The points of a `spawn` effect belong to no area, but they too must
be on the map.
""",
    example=Example(
        failing=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "West" start {\n  pieces R1\n  glyph at 0,0 active\n  treasure healing at 5,1\n}\n'
        + 'area B "East" { pieces R2 }\n'
        + "victory heroes when revealed B\n",
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "West" start {\n  pieces R1\n  glyph at 0,0 active\n  treasure healing at 3,1\n}\n'
        + 'area B "East" { pieces R2 }\n'
        + "victory heroes when revealed B\n",
    ),
    fields=("thing", "where", "problem", "label"),
)


def _on_pieces(facts: Facts) -> list[Diagnostic]:
    """What is placed `on` pieces (a group, a lieutenant, tokens the overlord places): each piece must
    be wholly its area's."""
    model = facts.model
    placed = [(g.words, g.area, g.node.on) for g in model.groups.values()]
    placed += [(t.name if t.id else f"the {t.kind} tokens", t.area, t.node.on) for t in model.tokens]
    out = []
    for thing, area_id, names in placed:
        area = model.areas[area_id]
        for name in names:
            piece = model.pieces.get(name.value)
            if piece is None or piece.shape.cells <= area.cells:
                continue
            owner = next((a.id for a in model.areas.values() if piece.shape.cells & a.cells and a.id != area_id), None)
            where = f"area `{owner}`" if owner else "no area"
            out.append(
                Q204.at(
                    name.span,
                    thing=thing,
                    where=f"piece `{name.value}`",
                    problem=f"in {where}, not in its own area `{area_id}`",
                    label=f"a piece of {where}",
                    help=f"name a piece of `{area_id}`"
                    + (f", or move the statement into area `{owner}`" if owner else ""),
                )
            )
    return out


def find(context: CheckContext) -> list[Diagnostic]:
    """Q204: something placed off the map, or on a cell outside its own area.

    Checks markers (glyphs, chests, treasure, relics, runekeys,
    encounters), obstacles and traps (every cell), figures (every footprint cell; a
    large figure partly off the floor is Q208's), the points of `spawn` effects (off
    the map only: a spawn belongs to no area) and areas' `cells` rectangles. One
    diagnostic per statement item, at its point, labelled on the area; the help names
    the nearest free cell of the area, or the area the thing is really in.
    """
    facts = placement_facts(context)
    model = facts.model
    out = []
    for marker in model.markers:
        problem = facts.area_problem([marker.at], marker.area)
        if problem and not (problem[0] == "off" and marker.kind in TOKEN_KINDS):  # a token off the map: Q212
            out.append(
                _q204(
                    facts,
                    marker_name(marker),
                    fmt(marker.at),
                    marker.span,
                    marker.area,
                    problem,
                    marker.at,
                    movable=True,
                )
            )
    for obstacle in model.obstacles:
        if obstacle.piece is not None:
            continue  # terrain printed on a tile lies on its own cells, whatever their area
        problem = facts.area_problem(obstacle.cells, obstacle.area)
        if problem:
            out.append(
                _q204(
                    facts,
                    obstacle.kind.name,
                    fmt_cells(obstacle.cells),
                    obstacle.span,
                    obstacle.area,
                    problem,
                    obstacle.cells[0],
                    count=len(set(obstacle.cells)),
                )
            )
    for index, figure in enumerate(model.figures):
        found = facts.figure_problem.get(index)
        if found and found[0] == "Q204":
            out.append(
                _q204(
                    facts,
                    figure_name(figure),
                    fmt(figure.at),
                    figure.span,
                    figure.area,
                    found[1],
                    figure.at,
                    count=len(figure.cells),
                    figure=figure,
                    movable=True,
                )
            )
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if found and found[0] == "Q204":
            spot = spawn_spot(facts, spawn)
            out.append(
                Q204.at(
                    spawn.span,
                    thing=spawn.name,
                    where=fmt(spawn.at),
                    problem="off the map",
                    label="no floor here",
                    help=f"spawn it on the floor, such as at {fmt(spot)}" if spot else "spawn it on a floor cell",
                    fixes=move_fix(facts, spawn.span, spot, f"the {spawn.name}", spawn.type.cells(spot))
                    if spot
                    else (),
                )
            )
    out += _on_pieces(facts)
    for claim in facts.claims:
        if claim.piece is None:
            area = model.areas[claim.area]
            stmt_cells = _claim_cells(facts, area, claim.span)
            off = sorted(c for c in stmt_cells if c not in facts.floor)
            if off:
                out.append(
                    Q204.at(
                        claim.span,
                        thing=f"`cells` of area `{claim.area}`",
                        where=fmt_cells(off),
                        problem="off the map",
                        label="no floor here",
                        help="claim only floor cells: every cell of `cells` must be on a piece",
                    )
                )
    return out


def _claim_cells(facts: Facts, area, span: Span) -> set[Cell]:
    for stmt in area.node.statements:
        if isinstance(stmt, n.Cells):
            for cell_set in stmt.cells:
                if cell_set.span == span:
                    return facts.cell_set(cell_set)
    return set()


def _q204(
    facts: Facts,
    thing: str,
    where: str,
    span: Span,
    area_id: str,
    problem,
    near: Cell,
    count: int = 1,
    figure=None,
    movable: bool = False,
) -> Diagnostic:
    """One Q204 for a thing placed in `area_id`; `problem` is Facts.area_problem's answer and
    `count` the number of cells the thing covers (to tell "partly" from "wholly"). A `movable`
    thing (a marker or a figure, written as one point) gets a fix moving it to the cell the
    help names."""
    kind, cells = problem
    area = facts.model.areas[area_id]
    if figure is not None and figure.type.large:
        spot = figure_spot(facts, figure)
    else:
        spot = facts.free_cell(area_id, near)
    partly = len(set(cells)) < count
    elsewhere = sorted({facts.areas_of[c][0] for c in cells if c in facts.areas_of} - {area_id})
    if kind == "off":
        text = f"partly off the map ({fmt_cells(cells)})" if partly else "off the map"
        label = "no floor here"
        help = f"move it onto the floor of `{area_id}`" + (f", such as {fmt(spot)}" if spot else "")
    else:
        inside = f" (in area `{elsewhere[0]}`)" if len(elsewhere) == 1 else ""
        text = (
            f"partly outside its area `{area_id}`: {fmt_cells(cells)}{inside}"
            if partly
            else f"outside its area `{area_id}`{inside}"
        )
        label = f"not a cell of `{area_id}`"
        options = []
        if spot:
            options.append(f"move it onto a free cell of `{area_id}`, such as {fmt(spot)}")
        if len(elsewhere) == 1 and not partly:
            options.append(f"move the statement into area `{elsewhere[0]}`")
        help = "; or ".join(options) or f"move it onto a cell of `{area_id}`"
    fixes: tuple[Fix, ...] = ()
    misplaced = misplaced_piece_under(facts, near) if kind == "off" else None
    if misplaced is not None:
        # Placed for a piece where the writer meant it to be: the piece moves (its Q205 or
        # Q202 has the fix), not this.
        help = (
            f"it lies on `{misplaced.piece}` once `{misplaced.piece}` is at {misplaced.place()}, where it "
            f"joins the map: move `{misplaced.piece}`, not this"
        )
        movable = False
    if movable and spot:
        footprint = figure.type.cells(spot, figure.facing) if figure is not None else None
        fixes = move_fix(facts, span, spot, f"the {thing}", footprint)
    return Q204.at(
        span,
        thing=thing,
        where=where,
        problem=text,
        label=label,
        labels=[facts.area_label(area_id, f"its area `{area_id}` ({fmt_cells(area.cells)})")],
        help=help,
        fixes=fixes,
    )


RULE = Rule(
    Q204,
    find,
    examples=(
        Example(  # second edition: a search token on the tile of another area
            failing=second_examples.two("  search at 5,1\n"), fixed=second_examples.two("  search at 1,1\n")
        ),
    ),
)
