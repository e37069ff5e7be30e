"""Q402 card-not-for-the-plan: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.model.plan import LineProblem
from questc.rules import Rule
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext
from questc.words import plural

Q402 = Descriptor(
    code="Q402",
    name="card-not-for-the-plan",
    severity=Severity.ERROR,
    template="`{name}` cannot go in the deck plan: {problem}",
    label_template="{label}",
    summary="A deck plan names a card that has no treachery cost, or more copies than the owned sets hold.",
    explanation="""
Only cards with a treachery cost can be swapped into the overlord's deck; the base
deck's cards are there already. A card whose cost the rule books do not state cannot
be priced either: the catalog never guesses one. And a plan may take no more copies
of a card (or of a dark glyph) than the sets the player owns hold: the quest's
`expansions`, or the sets given with `--expansions` or the configuration, or the
copies declared in the configuration's `[owned]` table (`cards = { "Card" = 3 }`, or
`sets = { base = 2 }` for two of every card).

When the catalog's number of copies is an estimate, the copies problem is a warning
that says so, instead of an error.
""",
    example=Example(
        failing=quest(WOD, tail='overlord {\n  card "Kobold Swarm"\n}\n'),
        fixed=quest(WOD, tail='overlord {\n  card "Danger"\n}\n'),
    ),
    fields=("name", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q402 in the quest's own `overlord { }` plan."""
    pricing = context.plan
    if pricing is None:
        return []
    # An unknown name in the quest's own plan is the resolver's Q101.
    return [diagnostic(problem, context.sets) for problem in pricing.problems if problem.kind != "unknown"]


def diagnostic(problem: LineProblem, sets: tuple[str, ...]) -> Diagnostic:
    """The Q402 for a plan line that cannot be taken (any LineProblem but an unknown name)."""
    item = problem.item
    what = "dark glyph" if item.kind == "dark_glyph" else "card"
    if problem.kind == "not owned" or (problem.kind == "copies" and problem.owned and problem.owned.count == 0):
        found = Q402.at(
            item.span,
            name=item.name,
            label="from a set not owned",
            problem=f"it comes from `{problem.set}`, which is not among the sets owned ({', '.join(sets)})",
            help=f"own `{problem.set}` (quest `expansions` or `--expansions`), or leave the {what} out",
        )
    elif problem.kind == "copies":
        assert problem.owned is not None and problem.owned.count is not None
        count = problem.owned.count
        holding = problem.held.holding if problem.held is not None else f"the sets owned hold {count}"
        hint = problem.held.hint if problem.held is not None else ""
        found = Q402.at(
            item.span,
            name=item.name,
            label="too many copies",
            problem=f"the plan takes {plural(problem.taken, 'copy')}, but {holding}",
            help=f"take at most {plural(count, 'copy')} of `{item.name}`{hint}",
        )
    elif problem.kind == "base deck":
        found = Q402.at(
            item.span,
            name=item.name,
            label="no treachery cost",
            problem="it has no treachery cost (it belongs to the base deck, which the overlord holds already)",
            help="a plan names only cards with a treachery cost (`questc catalog cards` lists them)",
        )
    else:
        found = Q402.at(
            item.span,
            name=item.name,
            label="cost not known",
            problem=f"its {problem.colour} treachery cost is not known (the rule books do not state it)",
            help="leave it out of the plan, or give its cost in a content pack (`use`) that names the source",
        )
    if problem.kind == "copies" and problem.owned is not None and problem.owned.source == "estimate":
        # A count the books do not state is an estimate: warn, do not fail the plan on it.
        return found.with_severity(Severity.WARNING)
    return found


RULE = Rule(Q402, find, needs={"treachery"})
