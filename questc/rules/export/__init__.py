"""Q7xx, export: what a second edition quest says and Valkyrie cannot carry, found while exporting it
(`questc build --only valkyrie`, questc.emit.valkyrie); no lint run reports them.

An error here stops the Valkyrie quest only: the quest's other outputs are still built.
"""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Export to Valkyrie"

# The function that runs these codes' examples (tests/test_rules.py): an export, not a lint.
CHECKED_BY = "questc.emit.valkyrie:diagnose"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "valkyrie_unknown_component",  # Q701
    "valkyrie_split_tile",  # Q702
    "valkyrie_shown_as_text",  # Q703
    "valkyrie_sight_reveal",  # Q704
    "valkyrie_missing_encounter",  # Q705
    "valkyrie_approximated",  # Q706
)


def codes() -> frozenset[str]:
    """The codes of this family: an error among them stops the Valkyrie export, nothing else."""
    return frozenset(rule.code for rule in RULES)
