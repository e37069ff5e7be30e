"""Q501 no-heroes-victory: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.logic.chests import MAX_LABELS
from questc.rules.logic.examples import quest

Q501 = Descriptor(
    code="Q501",
    name="no-heroes-victory",
    severity=Severity.ERROR,
    template="the quest has no heroes' victory condition",
    label_template="the heroes can never win this quest",
    summary="No heroes' victory condition.",
    explanation="""
The overlord always wins when the heroes' conquest reaches 0, so his victory need not
be written; the heroes' goal must be. A quest needs at least one
`victory heroes ... when CONDITION` (kill a named monster, reveal an area, trigger an
encounter, open a door, ...).
""",
    example=Example(
        failing=quest(win="victory overlord when conquest 0\n"),
        fixed=quest(win="victory heroes when killed chief\nvictory overlord when conquest 0\n"),
    ),
    fields=(),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q501 when no `victory heroes` is written, at the quest's title."""
    model = context.model
    if any(v.side.value == "heroes" for v in model.victories):
        return []
    labels = [Label(v.side.span, "only the overlord can win") for v in model.victories][:MAX_LABELS]
    return [Q501.at(model.header_span(), labels=labels, help=_victory_suggestion(model))]


def _victory_suggestion(model) -> str:
    """A concrete heroes' victory built from what the quest has: a named monster, a far area, an encounter."""
    if model.named:
        condition = f"killed {next(iter(model.named))}"
    elif any(not a.start for a in model.areas.values()):
        condition = f"revealed {[a.id for a in model.areas.values() if not a.start][-1]}"
    elif model.encounters:
        condition = f"triggered {next(iter(model.encounters))}"
    else:
        condition = "killed NAMED"
    return f'add the heroes\' goal, e.g. `victory heroes "Label" when {condition}`'


RULE = Rule(
    Q501,
    find,
    examples=(
        Example(  # second edition: only the overlord can win
            failing=second_examples.second(win="victory overlord when round > 8\n"),
            fixed=second_examples.second(win="victory heroes when exited\nvictory overlord when round > 8\n"),
        ),
    ),
)
