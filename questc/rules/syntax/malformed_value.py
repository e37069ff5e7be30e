"""Q003 malformed-value: the code's rule (reported by questc.syntax.parser, questc.syntax.transform);
its descriptor lives with the stage, in questc.syntax.codes."""

from __future__ import annotations

from questc.rules import Rule
from questc.syntax.codes import Q003

RULE = Rule(Q003, reported_by="questc.syntax.parser, questc.syntax.transform")
