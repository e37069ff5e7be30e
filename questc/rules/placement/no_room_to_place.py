"""Q216 no-room-to-place: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import places
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import second
from questc.words import plural

Q216 = Descriptor(
    code="Q216",
    name="no-room-to-place",
    severity=Severity.ERROR,
    template="{thing} {needs}, but {where} {has}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A group or tokens the overlord places on a piece or area with fewer free spaces than it needs.",
    explanation="""
A monster group placed on a tile (`group goblin_archer on T4`) is set up by the
overlord on spaces of his choice: one figure to a space, on spaces no obstacle blocks
and no figure placed at its own point already holds. Its size comes from the monster
card for the number of heroes (or `minions`/`masters`), so the quest must leave room
for the largest: four heroes mean the biggest groups. Tokens placed `on` pieces or
`among` points need a space each too. A setup that does not fit cannot be played.
""",
    example=Example(failing=second("  group zombie on Cap\n"), fixed=second("  group zombie on T\n")),
    fields=("thing", "needs", "where", "has", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q216: a group (at its largest, with the most heroes the quest takes) or `on`/`among` tokens with
    fewer free spaces than figures or tokens. A group's free spaces are those of its place with no
    obstacle that keeps figures out and no figure placed at its own point; a token's, those with no
    such obstacle."""
    model, board = context.model, context.board
    heroes = model.heroes()
    taken = {c for f in model.figures for c in f.cells}
    out = []
    for group in model.groups.values():
        if group.kind == "open":
            continue  # the overlord's choice of monster, fitted to the place when he chooses
        need, at = max((sum(group.size(h)), h) for h in range(heroes[0], heroes[1] + 1))
        room = [c for c in places(board, group.cells) if c not in taken]
        footprint = len(group.type.cells((0, 0))) if group.type is not None else 1
        if need and (len(room) < need or len(room) < need * footprint):
            thing = group.words
            what = plural(need, "figure")
            out.append(
                Q216.at(
                    group.span,
                    thing=thing,
                    needs=f"places {what}" + (f" with {at} heroes" if at > 2 else ""),
                    where=_where(group.pieces, group.area),
                    has=f"has {plural(len(room), 'free space')}",
                    label=f"{what}, {plural(len(room), 'free space')}",
                    help_text="place it on a larger piece or more pieces (`on T1, T2`), or anywhere in "
                    "the area (leave out `on`)",
                )
            )
    for token in model.tokens:
        if token.placement not in ("on", "among"):
            continue
        need = max(token.count.value(h) for h in range(heroes[0], heroes[1] + 1))
        room = places(board, token.cells)
        if need > len(room):
            where = _where(token.pieces, token.area) if token.placement == "on" else "the spaces listed"
            out.append(
                Q216.at(
                    token.span,
                    thing=token.name if token.id else f"the {token.kind} tokens",
                    needs=f"need {plural(need, 'space')}",
                    where=where,
                    has=f"{'have' if where.endswith('listed') else 'has'} {len(room)}",
                    label=f"{plural(need, 'token')}, {plural(len(room), 'space')}",
                    help_text="list more spaces, or place fewer tokens",
                )
            )
    return out


def _where(pieces: tuple[str, ...], area: str) -> str:
    if not pieces:
        return f"area `{area}`"
    return (
        "piece " + " and ".join(f"`{p}`" for p in pieces)
        if len(pieces) < 3
        else "pieces " + ", ".join(f"`{p}`" for p in pieces)
    )


RULE = Rule(Q216, find, needs={"groups"})
