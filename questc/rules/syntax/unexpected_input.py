"""Q001 unexpected-input: the code's rule (reported by questc.syntax.parser, questc.pipeline); its
descriptor lives with the stage, in questc.syntax.codes."""

from __future__ import annotations

from questc.rules import Rule
from questc.syntax.codes import Q001

RULE = Rule(Q001, reported_by="questc.syntax.parser, questc.pipeline")
