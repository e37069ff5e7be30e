"""Q106 bad-content-pack: the code's rule (reported by questc.catalog.load, questc.model.resolve); its
descriptor lives with the stage, in questc.catalog.codes."""

from __future__ import annotations

from questc.catalog.codes import Q106
from questc.rules import Rule

RULE = Rule(Q106, reported_by="questc.catalog.load, questc.model.resolve")
