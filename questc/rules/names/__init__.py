"""Q1xx, names: reported while names are resolved against the quest and the catalog
(questc.model.resolve, questc.catalog)."""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Names and references"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "unknown_catalog_name",  # Q101
    "duplicate_identifier",  # Q102
    "undefined_reference",  # Q103
    "component_from_unlisted_set",  # Q104
    "named_monster_placement",  # Q105
    "bad_content_pack",  # Q106
)
