"""Q217 reinforcements-too-many: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import places
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import MAP, second
from questc.syntax import nodes as n
from questc.words import plural

_RULE_HEAD = "at end of each overlord turn {\n  place %s zombie on %s up to limit\n}\n"

Q217 = Descriptor(
    code="Q217",
    name="reinforcements-too-many",
    severity=Severity.WARNING,
    template="{what} {count}, but {where} {has}",
    label_template="{label}",
    help_template="{help_text}",
    summary="Reinforcements (or tokens) placed during play on a place with fewer free spaces than they need.",
    explanation="""
`place 2 goblin_archer on T4` puts figures on spaces of the overlord's choice: one to
a space, on spaces no obstacle blocks. A place smaller than what is placed there is
full before the first reinforcement is: the rest cannot arrive, and the quest plays
harder or easier than written. `up to limit` caps the figures at the group's size
for the number of heroes, which counts too.
""",
    example=Example(
        failing=second(map_=MAP, win="victory heroes when exited\n" + _RULE_HEAD % (3, "Cap")),
        fixed=second(map_=MAP, win="victory heroes when exited\n" + _RULE_HEAD % (3, "T")),
    ),
    fields=("what", "count", "where", "has", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q217 (warning): a `place` effect of more figures (or tokens), at the most heroes the quest takes
    and within its `up to` limit, than its place has free spaces (those `at` points: points)."""
    model, board = context.model, context.board
    top = model.heroes()[1]
    out = []
    for effect, _source in model.effects():
        if not isinstance(effect, n.PlaceEffect):
            continue
        count = effect.count.value(top) if effect.count is not None else 1
        if effect.kind == "monster" and effect.limit is not None:
            monster = model.catalog.lookup("monster", effect.type.value) if effect.type is not None else None
            limit = (
                effect.limit
                if isinstance(effect.limit, int)
                else (sum(monster.group_size(top) or (count, 0)) if monster is not None else count)
            )
            count = min(count, limit)
        if effect.at:
            room, where = len({(p.x, p.y, p.piece.value if p.piece else None) for p in effect.at}), "the points listed"
        else:
            cells: set[tuple[int, int]] = set()
            for name in effect.on:
                piece = model.pieces.get(name.value)
                if piece is not None:
                    cells |= piece.shape.cells
            if effect.area is not None and effect.area.value in model.areas:
                cells |= model.areas[effect.area.value].cells
            room = len(places(board, cells))
            where = (
                ("area " + f"`{effect.area.value}`")
                if effect.area is not None
                else "piece " + " and ".join(f"`{p.value}`" for p in effect.on)
            )
        if count > room:
            what = (
                f"it places {plural(count, effect.type.value.replace('_', ' ') if effect.type else effect.kind)}"
                if effect.kind == "monster"
                else f"it places {plural(count, effect.kind + ' token')}"
            )
            out.append(
                Q217.at(
                    effect.span,
                    what=what,
                    count=f"with {top} heroes" if effect.count and effect.count.heroes else "at a time",
                    where=where,
                    has=f"{'have' if where.endswith('listed') else 'has'} {plural(room, 'free space')}",
                    label=f"{count} for {plural(room, 'space')}",
                    help_text="place them on a larger piece or on more pieces, or fewer at a time",
                )
            )
    return out


RULE = Rule(Q217, find, needs={"groups"})
