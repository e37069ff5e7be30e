"""The library API: quest files in, checked quests and their printed files out.

    from questc.api import build, check_file, guide
    result = check_file(Path("quests/drowned.quest"))
    for d in result.diagnostics: ...
    if result.compiled is not None:        # every stage ran: the CompiledQuest
        board = result.compiled.board
    report = build(["quests"], "out", kinds=["json"])      # out/<id>.json per clean quest
    guide(["quests"], "guide.pdf", title="Our campaign")

The command line, the language server and the preview server are thin layers over this
module; nothing below it knows they exist. The work is done below: questc.pipeline (the
stages, QuestResult, CompiledQuest), questc.discovery (which files), questc.build
(the files written).
"""
from __future__ import annotations

from questc.build import KINDS, BuildError, BuildReport, GuideReport, build, guide
from questc.compiled import CompiledQuest
from questc.discovery import find_quests
from questc.errors import QuestcError
from questc.options import Options
from questc.pipeline import QuestResult, QuestSummary, check_bytes, check_file, check_source, undecodable

__all__ = ["QuestResult", "QuestSummary", "CompiledQuest", "Options", "check_source", "check_file",
           "check_bytes", "undecodable", "find_quests", "QuestcError",
           "build", "guide", "BuildReport", "GuideReport", "BuildError", "KINDS"]
