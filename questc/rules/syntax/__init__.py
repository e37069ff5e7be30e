"""Q0xx, syntax: reported by the parser (questc.syntax) as it reads a quest; always errors."""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Syntax"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "unexpected_input",  # Q001
    "unterminated_string",  # Q002
    "malformed_value",  # Q003
    "bad_header_field",  # Q004
    "missing_quest_header",  # Q005
    "beyond_limits",  # Q006
)
