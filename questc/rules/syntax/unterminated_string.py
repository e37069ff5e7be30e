"""Q002 unterminated-string: the code's rule (reported by questc.syntax.parser); its descriptor lives
with the stage, in questc.syntax.codes."""

from __future__ import annotations

from questc.rules import Rule
from questc.syntax.codes import Q002

RULE = Rule(Q002, reported_by="questc.syntax.parser")
