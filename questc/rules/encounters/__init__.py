"""Q8xx, encounters: a quest of several encounters checked as a whole (the files of one `part_of`),
by `questc lint` over the files it is given (questc.quest_sets); the checks of one file never see
them.

Each rule module holds its code's descriptor and `check(quests, whole) -> diagnostics`: `quests`
maps each quest's `part_of` to its encounters, `Member`s (members.py) in encounter order; `whole` says
whether every file of the quest's folder was given (a missing encounter is only said then).
The diagnostics point into the member files; the policy (select, ignore, severities) applies
to them, and an inline `# questc: ignore[...]` does not (they are about several files).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

from questc.rules import Rule, rules_of

if TYPE_CHECKING:
    from questc.diagnostics.core import Diagnostic
    from questc.rules.encounters.members import Member

TITLE = "A quest's encounters together"

# The function that runs these codes' examples (tests/test_rules.py): the files of an example, checked
# together as a folder; an example holds several files, each after a `# file: NAME.quest` line.
CHECKED_BY = "questc.quest_sets:diagnose"
EXAMPLE_FILES = "questc.quest_sets:example_files"

_MODULES = (
    "encounter_given_twice",  # Q801
    "encounter_missing",  # Q802
    "part_of_spelled_differently",  # Q803
    "encounters_disagree",  # Q804
    "next_encounter_unknown",  # Q805
    "alternative_never_chosen",  # Q806
)
RULES: tuple[Rule, ...] = rules_of(__name__, *_MODULES)


def checks() -> tuple[Callable[[dict[str, list[Member]], bool], list[Diagnostic]], ...]:
    """Each rule module's `check`, in code order."""
    return tuple(import_module(f"{__name__}.{module}").check for module in _MODULES)


def codes() -> frozenset[str]:
    return frozenset(rule.code for rule in RULES)
