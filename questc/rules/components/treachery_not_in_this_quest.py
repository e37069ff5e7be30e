"""Q408 treachery-not-in-this-quest: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc import editions
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext, HeaderContext

if TYPE_CHECKING:
    from questc.model.plan import DeckPlan
    from questc.model.quest import QuestModel

Q408 = Descriptor(
    code="Q408",
    name="treachery-not-in-this-quest",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    summary="Treachery given in a `second` edition quest, or a deck plan for a quest with no treachery.",
    explanation="""
Treachery is a first edition rule (The Well of Darkness and later): second edition
quests have no treachery budget. And a quest whose header gives no `treachery` lets
the overlord play the base deck only, so a deck plan for it has nothing to spend.
""",
    example=Example(
        failing=quest(
            WOD.replace("  treachery event 4, trap 3, monster 3\n", ""), tail='overlord {\n  card "Danger"\n}\n'
        ),
        fixed=quest(WOD, tail='overlord {\n  card "Danger"\n}\n'),
    ),
    fields=("problem", "label"),
)


def header_treachery(context: HeaderContext) -> list[Diagnostic]:
    """Q408 on the header's `treachery` of a quest whose edition has none (the header alone says it)."""
    model = context.model
    field = model.header.get("treachery") if model.header is not None else None
    edition = model.edition
    if model.treachery is None or field is None or edition.has("treachery"):
        return []
    written = model.header.get("edition") if model.header is not None else None
    labels = [Label(written.span, f"a {edition.name} edition quest")] if written is not None else []
    owner = next(iter(editions.having("treachery")), None)
    return [
        Q408.at(
            field.span,
            problem=f"treachery is a {owner or 'another'} edition rule: a `{edition.name}` edition quest has none",
            label=f"not in a {edition.name} edition quest",
            labels=labels,
            help="remove the `treachery` line" + (f", or make the quest `edition {owner}`" if owner else ""),
        )
    ]


def find(context: CheckContext) -> list[Diagnostic]:
    """Q408: treachery in a second edition quest, and a deck plan in a quest without a budget."""
    found = header_treachery(context)
    pricing = context.plan
    if pricing is not None and pricing.budget is None:
        found.append(plan_without_budget(pricing.plan, context.model))
    return found


def plan_without_budget(plan: DeckPlan, model: QuestModel) -> Diagnostic:
    """The Q408 for a deck plan priced against a quest that gives no treachery."""
    if not model.edition.has("treachery"):
        problem = f"a `{model.edition.name}` edition quest has no treachery, so a deck plan has nothing to spend"
        help = "leave the deck plan out"
    else:
        problem = "the deck plan has nothing to spend: the quest gives no treachery budget"
        help = (
            "give the quest a budget in its header (`treachery event 4, trap 4, monster 4`), or leave the deck plan out"
        )
    return Q408.at(
        plan.span,
        problem=problem,
        label="a deck plan",
        help=help,
        labels=[Label(model.header_span(), "this quest gives no `treachery`")],
    )


RULE = Rule(
    Q408,
    find,
    header=header_treachery,
    examples=(
        Example(  # second edition: treachery
            failing=second_examples.second(
                head=second_examples.HEAD.replace(
                    "edition second\n", "edition second\n  treachery event 4, trap 4, monster 4\n"
                )
            ),
            fixed=second_examples.second(),
        ),
    ),
)
