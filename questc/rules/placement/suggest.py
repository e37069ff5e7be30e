"""Where a misplaced figure could go: the nearest cells that fit, for the placement rules' help."""
from __future__ import annotations

from questc.rules.placement.facts import FACINGS, Cell, Facts, Spawn, distance


def spawn_spot(facts: Facts, spawn: Spawn) -> Cell | None:
    """The nearest top-left floor cell where the spawned figure fits: its footprint on
    floor no overlap contests, no wall inside, no blocking obstacle."""
    floor = [c for c in facts.floor if c not in facts.contested]
    for cell in sorted(floor, key=lambda c: distance(spawn.at, c)):
        cells = spawn.type.cells(cell)
        if not cells & facts.contested and facts.figure_fit(cells) is None:
            return cell
    return None


def figure_spot(facts: Facts, figure, with_facing: bool = False):
    """The nearest top-left cell (and facing) where the figure fits in its area: floor of its
    own area, no wall inside, no blocking obstacle, no other figure, no active glyph."""
    area = facts.model.areas[figure.area]
    others: set[Cell] = set()
    for other in facts.model.figures:
        if other is not figure:
            others |= other.cells
    glyphs = {m.at for m in facts.model.markers if m.kind == "glyph" and m.active}
    facings = [figure.facing]
    w, h = figure.type.footprint
    if with_facing and w != h:
        facings += [f for f in FACINGS if figure.type.size(f) != figure.type.size(figure.facing)][:1]
    best = None
    for cell in sorted(area.cells, key=lambda c: distance(figure.at, c)):
        for facing in facings:
            cells = figure.type.cells(cell, facing)
            if not cells <= area.cells or cells & others or cells & glyphs or cells & facts.contested:
                continue
            if facts.figure_fit(cells) is None:
                key = (distance(figure.at, cell), facing != figure.facing)
                if best is None or key < best[0]:
                    best = (key, cell, facing)
        if best is not None and distance(figure.at, cell) > best[0][0]:
            break
    if best is None:
        return None
    return (best[1], best[2]) if with_facing else best[1]
