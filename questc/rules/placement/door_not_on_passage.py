"""Q205 door-not-on-passage: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.board.geometry import edge_cells
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Fix, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD, WIN, hall
from questc.rules.placement.facts import Facts, distance, placement_facts
from questc.rules.placement.suggest import piece_move_fix

Q205 = Descriptor(
    code="Q205",
    name="door-not-on-passage",
    severity=Severity.ERROR,
    template="door `{door}` cannot stand there: {problem}",
    label_template="not on a passage between two pieces",
    help_template="put the door where two pieces' openings meet: `door {door} between PIECE PIECE`",
    summary="A door that is not on a two-cell passage between floor cells.",
    explanation="""
A door covers the two-space stretch where two pieces join. `door ID between A B` puts
it on the one joint of A and B (an error if they share none, or several: then say
which with `at`); `door ID at X,Y SIDE` puts it on that side of cell X,Y and the next
cell along it, which must be a joint too. A door on a wall, on open floor inside a
piece, or half off the map cannot be set up.
""",
    example=Example(
        failing=hall(glyph="glyph at 0,0 active").replace("area A", "door d at 1,1 north\narea A") + WIN,
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d at 3,1 east\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "East" { pieces R2 }\n'
        + WIN,
    ),
    fields=("door", "problem"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q205: a door not on a two-cell passage between floor cells.

    Reports each door the board left off (QuestBoard.door_problems) at
    the door's name, with a concrete help: the `between` or `at` statement of the
    nearest real joint, or the joints to choose from.
    """
    facts = placement_facts(context)
    model = facts.model
    out = []
    for door_id, problem in facts.qb.door_problems:
        door = model.doors[door_id]
        help: str = _door_help(facts, door)
        fixes: tuple[Fix, ...] = ()
        if door.between and door.between[0] != door.between[1]:
            a, b = door.between
            move = facts.best_move(b, a)
            if move is not None and ({a, b} - {move.piece}) <= set(move.joins):
                # The door's pieces meet a few cells away: the piece is misplaced, not the door.
                help = f"move `{move.piece}` {move.words()}"
                fixes = piece_move_fix(facts, move)
        out.append(Q205.at(door.node.id.span, door=door_id, problem=problem, help=help, fixes=fixes))
    return out


def _joint_at(edges) -> str:
    """A joint's two edges in; the `at X,Y SIDE` that names them out."""
    (x1, y1, x2, y2), _ = sorted(edges)
    if x1 == x2:  # vertical: the east side of the cell west of it
        return f"at {x1 - 1},{y1} east"
    return f"at {x1},{y1 - 1} south"


def _door_help(facts: Facts, door) -> str:
    joints = facts.build.joints
    if door.between:
        a, b = door.between
        if a == b:
            return f"name two different pieces: `door {door.id} between {a} OTHER`"
        shared = [edges for pa, pb, edges in joints if {pa, pb} == {a, b}]
        if len(shared) > 1:
            options = " or ".join(f"`door {door.id} {_joint_at(e)}`" for e in shared)
            return f"say which joint: {options}"
        partners = sorted({pb if pa == a else pa for pa, pb, _ in joints if a in (pa, pb)})
        if partners:
            return (
                f"`{a}` joins {', '.join(f'`{p}`' for p in partners)}: put the door between `{a}` and one "
                f"of them, or move `{b}` so one of its openings meets one of `{a}`'s"
            )
        return f"move `{b}` so that one of its openings meets one of `{a}`'s exactly"
    if not joints:
        return "no two pieces are joined: doors stand where an opening of one piece meets an opening of another"
    here = door.at
    nearest = min(joints, key=lambda j: min(distance(here, c) for e in j[2] for c in edge_cells(e)))
    a, b, edges = nearest
    if len(facts.board.joints_between(a, b)) == 1:
        return f"the nearest joint is between `{a}` and `{b}`: `door {door.id} between {a} {b}`"
    return f"the nearest joint is between `{a}` and `{b}`: `door {door.id} {_joint_at(edges)}`"


RULE = Rule(
    Q205,
    find,
    examples=(
        Example(  # second edition: a door in the middle of a tile
            failing=second_examples.two(doors="door d at 1,1 north\n"),
            fixed=second_examples.two(doors="door d at 3,1 east\n"),
        ),
    ),
)
