"""Q102 duplicate-identifier: the code's rule (reported by questc.model.resolve); its descriptor lives
with the stage, in questc.model.codes."""

from __future__ import annotations

from questc.model.codes import Q102
from questc.rules import Rule

RULE = Rule(Q102, reported_by="questc.model.resolve")
