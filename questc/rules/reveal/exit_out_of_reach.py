"""Q311 exit-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import leave_cells
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import MAP, second
from questc.syntax import nodes as n

Q311 = Descriptor(
    code="Q311",
    name="exit-out-of-reach",
    severity=Severity.ERROR,
    template="a victory needs a hero to leave by the exit, but {problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A victory needs heroes to leave by the exit (`exited`), but the map has no exit or no hero "
    "can reach its edge spaces.",
    explanation="""
Heroes leave the map from an edge space of an exit tile, spending one movement
point. A victory condition `exited` (or `exited N`) can only come true if the map
has an exit and a hero can walk from the start to one of its edge spaces. The quest's
exits are the pieces its `exit` statement names, whatever their type (a tile given the
role is left from its spaces beside the map's outside), else the pieces of type `exit`.
""",
    example=Example(
        failing=second(map_=MAP.replace("piece Out exit at 4,1 turn 270\n", ""), pieces="T, In, Cap"), fixed=second()
    ),
    fields=("problem", "label", "help_text"),
)


def _exited_atoms(condition: n.Condition) -> list[n.CompareCondition]:
    """The `exited` counters a condition needs to come true (those under a `not` are left out)."""
    if isinstance(condition, n.CompareCondition):
        return [condition] if condition.counter == "exited" and _needs(condition) else []
    if isinstance(condition, n.NotCondition):
        return []
    if isinstance(condition, (n.AllCondition, n.AnyCondition)):
        return [atom for operand in condition.operands for atom in _exited_atoms(operand)]
    return []


def _needs(atom: n.CompareCondition) -> bool:
    """Does the counter need at least one hero out (`exited >= 1`, `exited 2`, `> 0`, `= 3`)?"""
    return {">=": atom.value >= 1, ">": atom.value >= 0, "=": atom.value >= 1}.get(atom.op, False)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q311: an `exited` atom a victory needs, with no exit piece on the map, or none whose
    edge spaces a hero reaches. One diagnostic per atom, at the word `exited`."""
    model, analysis = context.model, context.analysis
    exits = model.role_pieces("exit")
    reached = analysis.reached
    reachable = [p for p in exits if any(c in reached for c in leave_cells(context.board, p))]
    if reachable:
        return []
    out = []
    for victory in model.victories:
        for atom in _exited_atoms(victory.when):
            if not exits:
                problem, label = "the map has no exit", "no exit on this map"
                help_text = (
                    "join an `exit` piece to the map (`piece X exit at ...`), or name the piece the "
                    "heroes leave by: `exit PIECE`"
                )
                labels = []
            else:
                problem, label = "no hero can reach the exit's edge spaces", "the exit is out of reach"
                help_text = "join the exit to the part of the map the heroes walk, or clear the way to it"
                labels = [Label(p.node.id.span, "this exit") for p in exits]
            out.append(
                Q311.at(
                    atom.span,
                    problem=problem,
                    label=label,
                    help_text=help_text,
                    labels=labels + [Label(victory.side.span, f"the {victory.side.value}' victory")],
                )
            )
    return out


RULE = Rule(Q311, find, needs={"exit"})
