"""Q6xx, suppressions: reported by questc.suppress about `# questc: ignore[...]` comments and configured codes."""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Suppressions and configuration"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "unused_suppression",  # Q601
    "unknown_code",  # Q602
    "unsuppressible_code",  # Q603
    "malformed_suppression",  # Q604
)
