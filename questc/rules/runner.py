"""A checked quest's context in, the diagnostics of every check family out, phase by phase.

The check families run in this order. Reveal runs only when placement found no error:
a broken map would also report every reveal problem that follows from it (causes, not
cascades). Rules only report; select, ignore, severity and suppressions are applied
after (questc.options, questc.suppress).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic, Severity

if TYPE_CHECKING:
    from questc.rules.context import CheckContext, HeaderContext

# The families with checks, in phase order.
PHASES = ("placement", "reveal", "components", "logic")


def run_checks(context: CheckContext) -> list[Diagnostic]:
    """Every check's diagnostics, phase by phase."""
    found: list[Diagnostic] = []
    broken_map = False
    for phase in PHASES:
        family = import_module(f"questc.rules.{phase}")
        if phase == "reveal" and broken_map:
            continue
        if not family.ready(context):
            continue
        edition = context.model.edition
        produced = [d for rule in family.RULES if rule.applies_to(edition) for d in rule.find(context)]
        found += produced
        if phase == "placement":
            broken_map = any(d.severity is Severity.ERROR for d in produced)
    return found


def run_header_checks(context: HeaderContext) -> list[Diagnostic]:
    """The checks that read only the header (Rule.header), for a quest whose names did not
    resolve: their errors come with the name errors, not after those are fixed."""
    found: list[Diagnostic] = []
    edition = context.model.edition
    for phase in PHASES:
        for rule in import_module(f"questc.rules.{phase}").RULES:
            if rule.header is not None and rule.applies_to(edition):
                found += rule.header(context)
    return found
