"""Q307 victory-impossible: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.analysis import named_reachable
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import atom_area, rune_doors
from questc.syntax import nodes as n
from questc.words import plural

Q307 = Descriptor(
    code="Q307", name="victory-impossible", severity=Severity.ERROR,
    template="this victory condition can never become true: {reason}",
    label_template="{reason}",
    help_template="{help_text}",
    summary="A victory condition that can never become true.",
    explanation="""
A condition names a named monster, area, encounter or door the heroes can never
reach, reveal, trigger or open. The quest could never be won that way.

In a second edition quest the same goes for a lieutenant to be `killed` that no hero
can reach, and for `objectives N` when fewer than N objective tokens are there to be
held: for the heroes, fewer than N they can reach; for the overlord, fewer than N on
the map. (`exited` with no reachable exit is Q311.)
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + 'door d between R1 R2\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0..3,3 }\n'
                'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n',
        fixed=HEAD + TWO_ROOMS + 'door d between R1 R2\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0 3,3 }\n'
              'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n'),
    fields=("reason", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q307: victory conditions that can never become true (and not because of a Q303/Q304 door)."""
    model, analysis = context.model, context.analysis
    hopeful = rune_doors(context).hopeful
    out = []
    for victory in model.victories:
        side = victory.side.value
        if _possible(victory.when, model, analysis, side) or _possible(victory.when, model, hopeful, side):
            continue
        for atom in _objective_atoms(victory.when):
            have = objectives_held(model, analysis, side)
            if not _count_possible(atom, have):
                whose = "the heroes can reach" if side == "heroes" else "on the map"
                out.append(Q307.at(atom.span, reason=f"only {plural(have, 'objective token')} "
                                                     f"{whose}, and it needs {atom.op} {atom.value}",
                                   help_text="place enough objective tokens where they can be taken, or ask for fewer",
                                   labels=[Label(victory.side.span, f"the {side}' victory")]))
        for atom in _impossible_atoms(victory.when, model, analysis):
            area = atom_area(atom, model)
            if area is not None:
                # A sealed area (Q301) or an unreachable marker or monster (Q302) is the
                # cause, reported there with this condition as a label.
                continue
            reason, help_text = _why(atom, model)
            out.append(Q307.at(atom.target.span, reason=reason, help_text=help_text,
                               labels=[Label(victory.side.span, f"the {victory.side.value}' victory")]))
    return out


def _atom_possible(atom: n.EventCondition, model, analysis) -> bool:
    target = atom.target.value
    if atom.event == "killed":
        return named_reachable(model, target, analysis.reached)
    if atom.event == "revealed":
        return analysis.reveal_wave.get(target) is not None
    if atom.event == "triggered":
        encounter = model.encounters.get(target)
        return encounter is not None and encounter.at in analysis.reached
    if atom.event == "opened":
        return target in analysis.opened_doors
    return True


def objectives_held(model, analysis, side: str) -> int:
    """How many objective tokens a side could come to hold: the heroes those on or next to a
    cell they reach; the overlord's monsters every one on the map."""
    tokens = [m for m in model.markers if m.kind == "objective"]
    if side != "heroes":
        return len(tokens)
    return sum(1 for m in tokens if m.at in analysis.reached
               or any((m.at[0] + dx, m.at[1] + dy) in analysis.reached for dx in (-1, 0, 1) for dy in (-1, 0, 1)))


def _count_possible(atom: n.CompareCondition, have: int) -> bool:
    """Can `objectives OP N` come true when at most `have` tokens can be held (0 held at the start)?"""
    return {">=": have >= atom.value, ">": have > atom.value, "=": have >= atom.value}.get(atom.op, True)


def _objective_atoms(condition) -> list[n.CompareCondition]:
    """The `objectives` counters a condition needs (those under a `not` are left out)."""
    if isinstance(condition, n.CompareCondition):
        return [condition] if condition.counter == "objectives" else []
    if isinstance(condition, (n.AllCondition, n.AnyCondition)):
        return [a for operand in condition.operands for a in _objective_atoms(operand)]
    return []


def _possible(condition, model, analysis, side: str = "heroes") -> bool:
    if isinstance(condition, n.EventCondition):
        return _atom_possible(condition, model, analysis)
    if isinstance(condition, n.CompareCondition) and condition.counter == "objectives":
        return _count_possible(condition, objectives_held(model, analysis, side))
    if isinstance(condition, n.AllCondition):
        return all(_possible(c, model, analysis, side) for c in condition.operands)
    if isinstance(condition, n.AnyCondition):
        return any(_possible(c, model, analysis, side) for c in condition.operands)
    return True   # negations and other counters can always come true


def _impossible_atoms(condition, model, analysis):
    return [atom for atom in n.event_conditions(condition, negated=False)
            if not _atom_possible(atom, model, analysis)]


def _why(atom: n.EventCondition, model) -> tuple[str, str]:
    target = atom.target.value
    if atom.event == "killed":
        return (f"no hero can reach `{target}`", f"place `{target}` where the heroes can walk next to it")
    if atom.event == "revealed":
        return (f"area `{target}` is never revealed", f"join `{target}` to the map the heroes explore")
    if atom.event == "triggered":
        return (f"no hero can reach the encounter `{target}`", f"move `{target}` onto a cell the heroes reach")
    return (f"no hero can ever open the door `{target}`", f"make the door `{target}` reachable and passable")


RULE = Rule(Q307, find)
