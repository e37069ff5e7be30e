"""Q105 named-monster-placement: the code's rule (reported by questc.model.resolve); its descriptor
lives with the stage, in questc.model.codes."""

from __future__ import annotations

from questc.model.codes import Q105
from questc.rules import Rule

RULE = Rule(Q105, reported_by="questc.model.resolve")
