"""Q511 counter-never-raised: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import counter_range
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.examples import WIN, quest
from questc.rules.second_examples import second
from questc.syntax import nodes as n

_COUNTER = 'counter alarm "the alarm"\n'

Q511 = Descriptor(
    code="Q511",
    name="counter-never-raised",
    severity=Severity.WARNING,
    template="the counter `{name}` is never raised{why}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A counter the quest declares that no effect which can run ever raises.",
    explanation="""
`counter alarm` declares a number that starts at 0; effects move it (`alarm +1` in an
`on` block or a recurring rule, `at end of each round { alarm +1 }`) and conditions
test it (`victory overlord when alarm >= 6`). A counter nothing raises stays at 0: a
condition waiting for it to grow never comes (Q307 says so where a victory needs it),
and usually the rule meant to raise it was forgotten, names another counter, or sits
in a block that can never run (an area nobody reveals, a monster nobody reaches).
""",
    example=Example(
        failing=quest(tail=_COUNTER, win=WIN + "victory overlord when alarm >= 3\n"),
        fixed=quest(
            tail=_COUNTER + "at end of each round {\n  alarm +1\n}\n", win=WIN + "victory overlord when alarm >= 3\n"
        ),
    ),
    fields=("name", "why", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q511 (warning): a declared counter whose highest value, by the effects that can run, is 0."""
    model, analysis = context.model, context.analysis
    out = []
    for counter in model.counters.values():
        if counter_range(model, analysis, counter.id, context.board)[1] != 0:
            continue
        raising = [
            e
            for e, _source in model.effects()
            if isinstance(e, n.CounterEffect) and e.counter.value == counter.id and (e.amount > 0)
        ]
        if raising:
            why, label = ": what raises it can never run", "stays at 0"
            labels = [Label(e.span, "this never runs") for e in raising]
        else:
            why, label, labels = "", "nothing raises it", []
        out.append(
            Q511.at(
                counter.node.id.span,
                name=counter.id,
                why=why,
                label=label,
                labels=labels,
                help_text=f"raise it with `{counter.id} +1` in an `on` block or a recurring rule "
                f"(`at end of each round {{ ... }}`), or remove it",
            )
        )
    return out


_SECOND_WIN = "victory heroes when exited\nvictory overlord when alarm >= 3\n"

RULE = Rule(
    Q511,
    find,
    examples=(
        Example(  # second edition: the overlord's fatigue
            failing=second(win=_SECOND_WIN + _COUNTER),
            fixed=second(win=_SECOND_WIN + _COUNTER + "at end of each overlord turn {\n  alarm +1\n}\n"),
        ),
    ),
)
