"""The compiled quest (questc.compiled): one immutable product of every stage, made by questc.pipeline,
that every consumer reads; QuestResult is the report around it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from questc.api import CompiledQuest, check_source, config_files, project_root
from questc.rules.context import CheckContext

ROOT = Path(__file__).resolve().parent.parent
QUEST = (ROOT / "quests" / "burning_well.quest").read_text(encoding="utf-8")
PLAN = """quest "Plan" {
  expansions base, well_of_darkness
  conquest 5
  treachery event 4, trap 4, monster 4
}
piece R1 room_4x4 at 0,0
area A "Hall" start { pieces R1; glyph at 0,0 active; monster beastman at 2,2 }
overlord {
  card "Danger" x2
  card "Rolling Stone"
}
victory heroes when revealed A
"""


@pytest.fixture(scope="module")
def quest() -> CompiledQuest:
    result = check_source(QUEST, "burning_well.quest")
    assert result.compiled is not None and result.buildable()
    return result.compiled


def test_the_product_holds_every_stage_and_never_changes(quest):
    assert quest.tree.header is not None and quest.model.title and quest.board is quest.quest_board.board
    assert quest.source == QUEST and quest.path == "burning_well.quest"
    with pytest.raises(dataclasses.FrozenInstanceError):
        quest.model = None  # type: ignore[misc]
    assert quest.known_analysis is None or quest.known_analysis is quest.analysis
    assert quest.analysis is quest.analysis  # worked out once


def test_the_report_holds_the_product_or_none():
    broken = check_source('quest "B" {\n  conquest 3\n}\npiece R1 nowhere_piece at 0,0\n', "b.quest")
    assert broken.compiled is None and not broken.complete and broken.model is not None
    assert broken.summary is not None and broken.summary.id == "b"
    slim = check_source(QUEST, "burning_well.quest").slim()
    assert slim.compiled is None and slim.tree is None and slim.complete and slim.summary.id == "burning_well"


def test_the_rules_view_reads_the_product(quest):
    context = CheckContext(quest)
    assert context.model is quest.model and context.board is quest.board and context.plan is quest.plan
    calls = []
    assert context.shared(lambda c: calls.append(1) or 7) == 7


def test_the_plan_is_priced_once_and_read_by_the_rules_and_the_json():
    from questc.emit.engine_json import engine_document

    result = check_source(PLAN, "plan.quest")
    quest = result.compiled
    assert quest is not None and quest.plan is quest.plan
    document = engine_document(quest, result.diagnostics)
    assert document["overlord"]["spent"] == quest.plan.spent
    assert [(c["name"], c["copies"]) for c in document["overlord"]["cards"]] == [("Danger", 2), ("Rolling Stone", 1)]


def test_what_is_on_a_cell_is_one_answer(quest):
    """The hover and the preview word the same contents (CompiledQuest.contents_of)."""
    from questc.preview.scene import cell_words

    figure = quest.model.figures[0]
    here = quest.contents_of(figure.at)
    assert figure in here.figures and here.piece is not None and here.area is not None
    assert any(figure.type.name.replace("_", " ") in word for word in cell_words(here, quest.model))
    door_id, cells = next(iter(quest.quest_board.door_cells.items()))
    assert door_id in {door.id for door, _side in quest.contents_of(cells[0]).doors}
    assert quest.contents_of((-50, -50)).empty and quest.contents_of((-50, -50)).piece is None


def test_one_rule_finds_the_configuration_and_the_project_root(tmp_path):
    project = tmp_path / "project"
    quests = project / "quests"
    quests.mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (project / "questc.toml").write_text("strict = true\n", encoding="utf-8")
    found = [p for p in config_files(quests) if tmp_path in p.parents]
    assert found == [project / "questc.toml", project / "pyproject.toml"]  # questc.toml first
    assert project_root(quests) == project
    from questc.config import find_config

    assert find_config(quests).path == project / "questc.toml"
