"""Every diagnostic code, one module per rule, listed once in its family's `RULES` table.

A rule module holds a code's `Descriptor` (message, severity, explanation, examples)
and the function that finds it, `find(context) -> list[Diagnostic]`; a code that a
stage reports while it works (a syntax error, an unknown name, a bad suppression) has
no finder, and its rule names the stage instead. Each family package (`syntax`,
`names`, `placement`, `reveal`, `components`, `logic`, `suppressions`, `export`) lists its rules
in one `RULES` tuple; the registry here, `questc explain`, the docs generator, SARIF
and the check runner (questc.rules.runner) all read those tables. A family or rule
module that is missing or broken fails at import: nothing is skipped quietly.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING, Callable

from questc.diagnostics.core import Descriptor, Diagnostic

if TYPE_CHECKING:
    from questc.rules.context import CheckContext

__all__ = ["Rule", "FAMILIES", "family_rules", "all_rules", "find_rule", "descriptor", "descriptors"]

# The families in code order; each is the package questc.rules.<family>.
FAMILIES = ("syntax", "names", "placement", "reveal", "components", "logic", "suppressions", "export")


@dataclass(frozen=True)
class Rule:
    """One diagnostic code: its descriptor, and the check that finds it or the stage that reports it."""

    descriptor: Descriptor
    find: Callable[[CheckContext], list[Diagnostic]] | None = None
    reported_by: str | None = None   # the stage (a module) that reports the code, when no check finds it
    # The part of the check that reads only the header (the edition against a field), run on a
    # quest whose names did not resolve too, so its error comes with the others at once.
    header: Callable[[CheckContext], list[Diagnostic]] | None = None

    def __post_init__(self) -> None:
        if (self.find is None) == (self.reported_by is None):
            raise TypeError(f"rule {self.descriptor.code}: give it a finder or the stage that reports it, "
                            "one of the two")

    @property
    def code(self) -> str:
        return self.descriptor.code

    @property
    def name(self) -> str:
        return self.descriptor.name


def family_rules(family: str) -> tuple[Rule, ...]:
    """The `RULES` table of one family, in code order."""
    rules: tuple[Rule, ...] = import_module(f"questc.rules.{family}").RULES
    return rules


@lru_cache(maxsize=None)
def all_rules() -> dict[str, Rule]:
    """Code -> rule, for every family, sorted by code. Raises on a code listed twice."""
    table: dict[str, Rule] = {}
    for family in FAMILIES:
        for rule in family_rules(family):
            if rule.code in table:
                raise RuntimeError(f"diagnostic code {rule.code} is listed twice")
            table[rule.code] = rule
    return dict(sorted(table.items()))


@lru_cache(maxsize=None)
def _by_name() -> dict[str, Rule]:
    return {rule.name: rule for rule in all_rules().values()}


def find_rule(code_or_name: str) -> Rule | None:
    """A rule by its code (`Q303`, `q303`) or its name (`rune-door-guards-own-key`), else None."""
    key = code_or_name.strip()
    return all_rules().get(key.upper()) or _by_name().get(key.lower().replace("_", "-"))


def descriptors() -> dict[str, Descriptor]:
    """Code -> descriptor, for every code, sorted by code."""
    return {code: rule.descriptor for code, rule in all_rules().items()}


def descriptor(code: str) -> Descriptor | None:
    """The descriptor of a code (`Q303`, any case), else None."""
    rule = all_rules().get(code.upper())
    return rule.descriptor if rule is not None else None
