"""Q101 unknown-catalog-name: the code's rule (reported by questc.model.resolve, questc.catalog.model);
its descriptor lives with the stage, in questc.catalog.codes."""

from __future__ import annotations

from questc.catalog.codes import Q101
from questc.rules import Rule

RULE = Rule(Q101, reported_by="questc.model.resolve, questc.catalog.model")
