"""Q0xx, syntax: reported by the parser (questc.syntax) as it reads a quest; always errors."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.syntax import (
    bad_header_field,
    beyond_limits,
    malformed_value,
    missing_quest_header,
    unexpected_input,
    unterminated_string,
)

TITLE = "Syntax"

RULES: tuple[Rule, ...] = (
    unexpected_input.RULE,  # Q001
    unterminated_string.RULE,  # Q002
    malformed_value.RULE,  # Q003
    bad_header_field.RULE,  # Q004
    missing_quest_header.RULE,  # Q005
    beyond_limits.RULE,  # Q006
)
