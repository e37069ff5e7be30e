"""Q313 carry-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import destination_cells, token_reachable
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import MAP, second
from questc.syntax import nodes as n

# Tile 10A, a room joined to nothing, east of the example map.
_ISLAND = MAP + "piece R tile_10a at 8,0\n"

Q313 = Descriptor(
    code="Q313",
    name="carry-out-of-reach",
    severity=Severity.ERROR,
    template="a victory needs `{token}` carried to {where}, but {problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A victory needs a token carried somewhere, but the token cannot be carried, or it or its "
    "destination is out of reach.",
    explanation="""
`carried key to In` comes true when a figure carrying the objective token `key` stands
on a space of `In` (an area or a piece); `carried key to edge`, when it leaves the map
from an edge space of one of the quest's entrances or exits. Only objective tokens are
carried (the rule book: a figure picks one up from its space or the next, and drops it
when defeated). The victory never comes when the token is not an objective, when no
hero can come next to any space it is placed on, or when no hero can reach its
destination.
""",
    example=Example(
        failing=second(
            map_=_ISLAND,
            pieces="T, In, Out, Cap, R",
            extra="  objective red key on R\n",
            win="victory heroes when carried key to In\n",
        ),
        fixed=second(extra="  objective red key on T\n", win="victory heroes when carried key to In\n"),
    ),
    fields=("token", "where", "problem", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q313: each `carried TOKEN to DEST` a victory needs true whose token is no objective, can be reached
    on none of its spaces, or whose destination no hero reaches (for `edge`: the quest has no entrance
    or exit a hero reaches)."""
    model, board, reached = context.model, context.board, context.analysis.reached
    tokens = model.tokens_named()
    out = []
    for victory in model.victories:
        side = Label(victory.side.span, f"the {victory.side.value}' victory")
        for atom in n.event_conditions(victory.when, negated=False):
            if atom.event != "carried" or atom.target.value not in tokens:
                continue
            token = tokens[atom.target.value]
            where = f"`{atom.destination.value}`" if atom.destination is not None else "the map's edge"
            name = token.id or ""
            if token.kind != "objective":
                out.append(
                    Q313.at(
                        atom.target.span,
                        problem=f"it is a {token.kind} token: only objective tokens are carried",
                        label=f"a {token.kind} token",
                        help_text=f"make `{token.id}` an objective token (`objective {token.id} ...`)",
                        labels=[Label(token.span, "placed here"), side],
                        token=name,
                        where=where,
                    )
                )
            elif not token_reachable(board, token, reached):
                out.append(
                    Q313.at(
                        atom.target.span,
                        problem="no hero can reach it",
                        label="out of reach",
                        help_text="place it where the heroes can walk next to it",
                        labels=[Label(token.span, "placed here"), side],
                        token=name,
                        where=where,
                    )
                )
            elif not any(c in reached for c in destination_cells(model, board, atom)):
                target = atom.destination.span if atom.destination is not None else atom.span
                problem = (
                    "no hero can reach it"
                    if atom.destination is not None
                    else "the quest has no entrance or exit a hero can reach"
                )
                out.append(
                    Q313.at(
                        target,
                        problem=problem,
                        label="out of reach",
                        help_text="carry it to a place the heroes can walk to"
                        if atom.destination
                        else "join an exit to the map (or name the piece the heroes leave by: `exit PIECE`)",
                        labels=[side],
                        token=name,
                        where=where,
                    )
                )
    return out


RULE = Rule(Q313, find, needs={"carrying"})
