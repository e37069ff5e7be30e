"""Every diagnostic code, one module per rule, listed once in its family's `RULES` table.

A rule module holds a code's `Descriptor` (message, severity, explanation, examples)
and the function that finds it, `find(context) -> list[Diagnostic]`; a code that a
stage reports while it works (a syntax error, an unknown name, a bad suppression) has
no finder, and its rule names the stage instead. Each family package (`syntax`,
`names`, `placement`, `reveal`, `components`, `logic`, `suppressions`, `export`, `encounters`) lists its rules
in one `RULES` tuple; the registry here, `questc explain`, the docs generator, SARIF
and the check runner (questc.rules.runner) all read those tables. A family or rule
module that is missing or broken fails at import: nothing is skipped quietly.

A rule checks some of the game's rules, and an edition plays by some of them
(questc.editions.GAME_RULES): `Rule(Q506, find, needs={"conquest"})` runs for the quests
of every edition with conquest tokens and for no other; `lacks` names rules the edition
must not have (a check of the other edition's statements). The runner skips a rule that
does not apply to the quest's edition; a rule never tests an edition's name.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from questc.diagnostics.core import Descriptor, Diagnostic, Example
from questc.editions import GAME_RULES, Edition
from questc.records import record

if TYPE_CHECKING:
    from questc.rules.context import CheckContext, HeaderContext

__all__ = ["Rule", "FAMILIES", "family_rules", "all_rules", "find_rule", "descriptor", "descriptors"]

# The families in code order; each is the package questc.rules.<family>.
FAMILIES = ("syntax", "names", "placement", "reveal", "components", "logic", "suppressions", "export", "encounters")


@record
class Rule:
    """One diagnostic code: its descriptor, and the check that finds it or the stage that reports it."""

    descriptor: Descriptor
    find: Callable[[CheckContext], list[Diagnostic]] | None = None
    reported_by: str | None = None  # the stage (a module) that reports the code, when no check finds it
    needs: AbstractSet[str] = frozenset()  # the game's rules the quest's edition must have for it to run
    lacks: AbstractSet[str] = frozenset()  # ... and those it must not have
    # Its examples in the other editions it applies to (the descriptor's, on its page, is the first):
    # tests/test_rules.py runs each in its own edition.
    examples: tuple[Example, ...] = ()
    # The part of the check that reads only the header (the edition against a field), run on a
    # quest whose names did not resolve too, so its error comes with the others at once.
    header: Callable[[HeaderContext], list[Diagnostic]] | None = None

    def __post_init__(self) -> None:
        if (self.find is None) == (self.reported_by is None):
            raise TypeError(
                f"rule {self.descriptor.code}: give it a finder or the stage that reports it, one of the two"
            )
        object.__setattr__(self, "needs", frozenset(self.needs))  # `needs={"conquest"}` reads well
        object.__setattr__(self, "lacks", frozenset(self.lacks))
        for word in (*self.needs, *self.lacks):
            if word not in GAME_RULES:
                raise TypeError(
                    f"rule {self.descriptor.code}: `{word}` is not one of the game's rules "
                    f"({', '.join(sorted(GAME_RULES))})"
                )

    def applies_to(self, edition: Edition) -> bool:
        """Does the rule run for a quest of this edition (it has every `needs`, no `lacks`)?"""
        return self.needs <= edition.features and not (self.lacks & edition.features)

    @property
    def all_examples(self) -> tuple[Example, ...]:
        """The descriptor's example, then those in other editions."""
        return (self.descriptor.example, *self.examples)

    @property
    def code(self) -> str:
        return self.descriptor.code

    @property
    def name(self) -> str:
        return self.descriptor.name


def rules_of(package: str, *modules: str) -> tuple[Rule, ...]:
    """A family's table: its rule modules (questc.rules.<family>.<module>) by name, one line each, in
    code order, imported now (a missing or broken module is an ImportError at start-up, never a rule
    skipped quietly); their RULEs out."""
    return tuple(import_module(f"{package}.{module}").RULE for module in modules)


def family_rules(family: str) -> tuple[Rule, ...]:
    """The `RULES` table of one family, in code order."""
    rules: tuple[Rule, ...] = import_module(f"questc.rules.{family}").RULES
    return rules


@cache
def all_rules() -> dict[str, Rule]:
    """Code -> rule, for every family, sorted by code. Raises on a code listed twice."""
    table: dict[str, Rule] = {}
    for family in FAMILIES:
        for rule in family_rules(family):
            if rule.code in table:
                raise RuntimeError(f"diagnostic code {rule.code} is listed twice")
            table[rule.code] = rule
    return dict(sorted(table.items()))


@cache
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
