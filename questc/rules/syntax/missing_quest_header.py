"""Q005 missing-quest-header: the code's rule (reported by questc.syntax.transform); its descriptor
lives with the stage, in questc.syntax.codes."""

from __future__ import annotations

from questc.rules import Rule
from questc.syntax.codes import Q005

RULE = Rule(Q005, reported_by="questc.syntax.transform")
