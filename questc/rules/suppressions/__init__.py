"""Q6xx, suppressions: reported by questc.suppress about `# questc: ignore[...]` comments and configured codes."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.suppressions import (
    malformed_suppression,
    unknown_code,
    unsuppressible_code,
    unused_suppression,
)

TITLE = "Suppressions and configuration"

RULES: tuple[Rule, ...] = (
    unused_suppression.RULE,  # Q601
    unknown_code.RULE,  # Q602
    unsuppressible_code.RULE,  # Q603
    malformed_suppression.RULE,  # Q604
)
