"""Q307 victory-impossible: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.analysis import named_reachable
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import atom_area, rune_doors
from questc.syntax import nodes as n

Q307 = Descriptor(
    code="Q307", name="victory-impossible", severity=Severity.ERROR,
    template="this victory condition can never become true: {reason}",
    label_template="{reason}",
    help_template="{help_text}",
    summary="A victory condition that can never become true.",
    explanation="""
A condition names a named monster, area, encounter or door the heroes can never
reach, reveal, trigger or open. The quest could never be won that way.
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
        if _possible(victory.when, model, analysis) or _possible(victory.when, model, hopeful):
            continue
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


def _possible(condition, model, analysis) -> bool:
    if isinstance(condition, n.EventCondition):
        return _atom_possible(condition, model, analysis)
    if isinstance(condition, n.AllCondition):
        return all(_possible(c, model, analysis) for c in condition.operands)
    if isinstance(condition, n.AnyCondition):
        return any(_possible(c, model, analysis) for c in condition.operands)
    return True   # negations and counters can always come true


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
