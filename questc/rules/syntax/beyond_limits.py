"""Q006 beyond-limits: the code's rule (reported by questc.syntax.parser, questc.syntax.transform,
questc.model.resolve, questc.board.quest_board); its descriptor lives with the stage, in questc.syntax.codes."""

from __future__ import annotations

from questc.rules import Rule
from questc.syntax.codes import Q006

RULE = Rule(
    Q006, reported_by="questc.syntax.parser, questc.syntax.transform, questc.model.resolve, questc.board.quest_board"
)
