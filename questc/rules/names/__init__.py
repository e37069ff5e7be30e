"""Q1xx, names: reported while names are resolved against the quest and the catalog
(questc.model.resolve, questc.catalog)."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.names import (
    bad_content_pack,
    component_from_unlisted_set,
    duplicate_identifier,
    named_monster_placement,
    undefined_reference,
    unknown_catalog_name,
)

TITLE = "Names and references"

RULES: tuple[Rule, ...] = (
    unknown_catalog_name.RULE,  # Q101
    duplicate_identifier.RULE,  # Q102
    undefined_reference.RULE,  # Q103
    component_from_unlisted_set.RULE,  # Q104
    named_monster_placement.RULE,  # Q105
    bad_content_pack.RULE,  # Q106
)
