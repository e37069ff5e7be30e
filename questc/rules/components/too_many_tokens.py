"""Q410 too-many-tokens: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections import defaultdict

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity, Span
from questc.rules import Rule
from questc.rules.components.counting import too_many
from questc.rules.context import CheckContext
from questc.rules.second_examples import second

Q410 = Descriptor(
    code="Q410",
    name="too-many-tokens",
    severity=Severity.ERROR,
    template="the quest places {counted}, but {holding}",
    label_template="one too many",
    help_template="remove {extra} of them, or list a set that brings more in `expansions`{hint}",
    summary="More search, objective, villager or lieutenant tokens than the owned sets hold.",
    explanation="""
The second edition base game holds 9 search tokens, 10 objective tokens, 8 villager
tokens and 6 lieutenant tokens (one for each of its lieutenants). An encounter that
needs more of a kind than the owned sets hold cannot be set up on the table. Each
encounter is its own map, so the count is per file. (Doors, 7 in the box, are
counted with the other markers: Q405.) A box that holds more is declared in the
configuration's `[owned]` table: `markers = { search = 12 }` (the tokens are markers
in the catalog), or `sets = { second_edition = 2 }`.
""",
    example=Example(
        failing=second("  villager at " + " ".join(f"{x},{y}" for y in range(3) for x in range(3)) + "\n"),
        fixed=second(
            "  villager at " + " ".join(f"{x},{y}" for y in range(3) for x in range(3) if (x, y) != (2, 2)) + "\n"
        ),
    ),
    fields=("counted", "holding", "extra", "hint"),
)

# Token kind -> what the message calls one of them.
WORDS = {
    "search": "search token",
    "objective": "objective token",
    "villager": "villager token",
    "lieutenant": "lieutenant token",
}


def find(context: CheckContext) -> list[Diagnostic]:
    """Q410: each token kind's markers (source order) against what the owned sets hold."""
    model = context.model
    counted: dict[str, list[tuple[Span, int]]] = defaultdict(list)
    for marker in model.markers:
        if marker.kind in WORDS:
            counted[marker.kind].append((marker.span, 1))
    top = model.heroes()[1]
    for token in model.tokens:  # those the overlord places, at their most (the most heroes)
        if token.placement != "at" and token.count.value(top):
            counted[token.kind].append((token.span, token.count.value(top)))
    found = []
    for kind, items in counted.items():
        diagnostic = too_many(Q410, context.box.held("markers", kind), items, "one more", WORDS[kind])
        if diagnostic is not None:
            found.append(diagnostic)
    return found


RULE = Rule(Q410, find, needs={"tokens"})
