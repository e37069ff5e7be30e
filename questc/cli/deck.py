"""`questc deck QUEST PLAN`: an overlord's deck plan (YAML) priced against the quest's treachery budget."""

from __future__ import annotations

import sys

import click

from questc.api import plural
from questc.cli.common import fail, guarded


@click.command()
@click.argument("quest", type=click.Path(dir_okay=False))
@click.argument("plan", type=click.Path(dir_okay=False))
@click.option("--expansions", help="Component sets you own, comma-separated (default: the quest's `expansions`).")
@guarded
def deck(quest: str, plan: str, expansions: str | None) -> None:
    """Check an overlord's deck plan against QUEST's treachery budget.

    PLAN is YAML: `cards:` (names, or {name: ..., copies: N}) and `dark_glyphs:`.
    Prints what each colour spends, what is left and the extra starting cards it buys;
    exits 1 when the plan breaks the rules (over budget, a card it may not take).
    """
    from questc.api import PlanError, Severity, check_file, check_plan, load_options, load_plan
    from questc.emit.report import display_path

    options = load_options(expansions=expansions)
    quest_path, plan_path = display_path(quest), display_path(plan)
    result = check_file(quest_path, options)
    model = result.model
    if (
        model is None
        or not model.resolved
        or any(d.severity is Severity.ERROR and d.code[:2] in ("Q0", "Q1") for d in result.all_diagnostics)
    ):
        # Without a resolved quest there is no budget to price against.
        broken = [d for d in result.all_diagnostics if d.severity is Severity.ERROR]
        _print(broken, {quest_path: result.source})
        click.echo(f"questc: {quest_path} has errors; `questc lint {quest_path}` shows them all", err=True)
        sys.exit(1)
    from questc.api import MAX_PACK_BYTES, read_input

    try:  # a regular file of at most a pack's size, checked before it is read
        text = read_input(plan_path, MAX_PACK_BYTES).decode("utf-8-sig")
    except OSError as error:
        fail(f"cannot read the plan {plan_path}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"the plan {plan_path} is not UTF-8 text")
    try:
        deck_plan = load_plan(text, plan_path)
    except PlanError as error:
        fail(f"bad deck plan: {error}")

    sets = options.owned_sets or model.expansions
    pricing, found = check_plan(deck_plan, model, sets, options.owned_counts)
    # The quest's own treachery problem (a `second` edition quest with a budget) concerns the plan too.
    treachery_field = model.header.get("treachery") if model.header is not None else None
    shown = [
        d
        for d in result.all_diagnostics
        if d.code == "Q408" and treachery_field is not None and d.span == treachery_field.span
    ]
    # Q407 (unspent treachery) is the table's last line; the rest are printed as diagnostics.
    shown += [d for d in found if d.code != "Q407"]

    click.echo(f'deck plan {plan_path} for "{model.title}" ({quest_path})')
    click.echo(_table(pricing))
    if shown:
        click.echo()
        _print(shown, {quest_path: result.source, plan_path: text})
    sys.exit(1 if any(d.severity is Severity.ERROR for d in shown) else 0)


def _table(pricing) -> str:
    """A priced plan in, the lines of its spending table out."""
    from questc.api import COLOUR_GEMS, COLOURS, MAX_HAND, POINTS_PER_CARD, STARTING_HAND

    if pricing.budget is None:
        spent = sum(pricing.spent.values())
        return f"  the quest gives no treachery budget; the plan would spend {spent}"
    lines = [f"  {'colour':<16}{'spent':>6}{'budget':>8}{'left':>6}"]
    for colour in COLOURS:
        budget, spent = pricing.budget.get(colour, 0), pricing.spent[colour]
        left = f"{budget - spent:>6}" if spent <= budget else f"  over by {spent - budget}"
        lines.append(f"  {colour + ' (' + COLOUR_GEMS[colour] + ')':<16}{spent:>6}{budget:>8}{left}")
    total_budget = sum(pricing.budget.get(c, 0) for c in COLOURS)
    lines.append(f"  {'total':<16}{sum(pricing.spent.values()):>6}{total_budget:>8}{pricing.unspent:>6}")
    if pricing.unpriced:
        names = ", ".join(f"`{item.name}`" for item in pricing.unpriced)
        lines.append(f"  left out of these sums (see below): {names}")
    if pricing.over:
        lines.append("  over budget: the plan cannot be played as it stands")
    else:
        extra = pricing.extra_cards
        lines.append(
            f"  extra starting cards: {extra} (1 per {POINTS_PER_CARD} points left; "
            f"the overlord starts with {STARTING_HAND + extra} of at most {MAX_HAND})"
        )
    return "\n".join(lines)


def _print(diagnostics, sources) -> None:
    """Diagnostics in the text format (as `questc lint` prints them), then a count of them."""
    from questc.api import Diagnostic, Severity
    from questc.emit.text import TextRenderer, use_colour

    renderer = TextRenderer(sources, colour=use_colour(sys.stdout))
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        click.echo(renderer.render(d) + "\n")
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = sum(1 for d in diagnostics if d.severity is Severity.WARNING)
    click.echo(f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")
