"""`questc deck QUEST PLAN` and the YAML plan reader and pricing behind it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import span_text

from questc.api import check_file, check_source
from questc.cli import cli
from questc.errors import PlanError
from questc.model.plan import DeckPlan, load_plan
from questc.rules.components import check_plan

PLANS = Path(__file__).parent / "fixtures" / "plans"
RUINS = PLANS / "trapped_ruins.quest"  # event 2, trap 6, monster 2


def deck(quest: Path, plan: Path, *more: str):
    """Run `questc deck` on fixture files; the click result (exit_code, output)."""
    return CliRunner().invoke(cli, ["deck", str(quest), str(plan), *more], env={"NO_COLOR": "1"})


def table_row(output: str, colour: str) -> list[str]:
    return next(line.split() for line in output.splitlines() if line.strip().startswith(colour))


# ---- the command ---------------------------------------------------------------------------------


def test_a_plan_within_the_budget_prints_what_is_left_and_the_extra_cards():
    result = deck(RUINS, PLANS / "traps.yaml")
    assert result.exit_code == 0, result.output
    assert table_row(result.output, "event") == ["event", "(green)", "1", "2", "1"]
    assert table_row(result.output, "trap") == ["trap", "(purple)", "6", "6", "0"]
    assert table_row(result.output, "monster") == ["monster", "(red)", "0", "2", "2"]
    assert table_row(result.output, "total") == ["total", "7", "10", "3"]
    assert "extra starting cards: 1" in result.output
    assert "error" not in result.output


def test_dark_glyphs_cost_two_of_their_colour():
    result = deck(RUINS, PLANS / "everything.yaml")
    assert result.exit_code == 0, result.output
    assert table_row(result.output, "monster") == ["monster", "(red)", "2", "2", "0"]
    assert table_row(result.output, "trap") == ["trap", "(purple)", "5", "6", "1"]  # stone 3 + power glyph 2
    assert "extra starting cards: 0" in result.output


def test_more_dark_glyphs_than_inactive_glyphs_exits_1_with_q409(tmp_path):
    plan = tmp_path / "glyphs.yaml"
    plan.write_text("dark_glyphs: [summoning, power, sundered]\n", encoding="utf-8")
    result = deck(RUINS, plan)
    assert result.exit_code == 1, result.output
    assert (
        "error[Q409]: the deck plan lays 3 dark glyphs, but only 2 of the quest's glyphs start inactive"
        in result.output
    )
    assert "glyphs.yaml:1:33" in result.output  # at `sundered`, the third


def test_over_budget_exits_1_with_q401_in_the_text_format():
    result = deck(RUINS, PLANS / "over_budget.yaml")
    assert result.exit_code == 1, result.output
    assert table_row(result.output, "event") == ["event", "(green)", "3", "2", "over", "by", "1"]
    assert "error[Q401]: the deck plan spends 3 event treachery, but the quest's budget gives 2" in result.output
    # rustc-like: the plan line with carets, the budget in the quest as a label
    assert "over_budget.yaml:4:11" in result.output
    assert "^^^^^^ this brings the event spending to 3" in result.output
    assert "------- the event budget is 2" in result.output
    assert "1 error, 0 warnings" in result.output


def test_a_base_deck_card_gives_one_q402_whatever_its_copies():
    result = deck(RUINS, PLANS / "base_deck.yaml")
    assert result.exit_code == 1
    assert result.output.count("error[Q402]") == 1 and "no treachery cost" in result.output
    assert "left out of these sums (see below): `Kobold Swarm`" in result.output


def test_an_unknown_card_prints_q101_with_a_suggestion():
    result = deck(RUINS, PLANS / "misspelt.yaml")
    assert result.exit_code == 1
    assert "error[Q101]: unknown overlord card `Rolling Stones`" in result.output
    assert "did you mean `Rolling Stone`?" in result.output
    assert "did you mean `summoning`?" in result.output


def test_a_plan_for_a_quest_with_no_treachery_gives_q408():
    result = deck(PLANS / "no_treachery.quest", PLANS / "traps.yaml")
    assert result.exit_code == 1
    assert "error[Q408]" in result.output
    assert "the quest gives no treachery budget" in result.output


def test_the_sets_owned_can_be_given():
    # Without Altar of Despair there are no dark glyphs to take.
    result = deck(RUINS, PLANS / "everything.yaml", "--expansions", "base,well_of_darkness")
    assert result.exit_code == 1
    assert result.output.count("error[Q402]") == 2


@pytest.mark.parametrize(
    "plan,words",
    [
        ("not_yaml.yaml", "not valid YAML"),
        ("wrong_shape.yaml", "`cards` must be a list"),
        ("empty.yaml", "the plan is empty"),
        ("missing.yaml", "cannot read the plan"),
    ],
)
def test_a_bad_plan_file_exits_2_with_a_clear_message(plan, words):
    result = deck(RUINS, PLANS / plan)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_a_quest_with_name_errors_exits_1_and_says_so(tmp_path):
    broken = tmp_path / "broken.quest"
    broken.write_text(RUINS.read_text().replace("ogre", "orge"), encoding="utf-8")
    result = deck(broken, PLANS / "traps.yaml")
    assert result.exit_code == 1
    assert "error[Q101]" in result.output and "has errors" in result.output


# ---- reading YAML plans -------------------------------------------------------------------------


def test_load_plan_reads_names_copies_and_dark_glyphs_with_their_places():
    text = "cards:\n  - Danger\n  - {name: Rolling Stone, copies: 2}\ndark_glyphs: [power]\n"
    plan = load_plan(text, "p.yaml")
    assert [(i.kind, i.name, i.copies) for i in plan.items] == [
        ("card", "Danger", 1),
        ("card", "Rolling Stone", 2),
        ("dark_glyph", "power", 1),
    ]
    assert [span_text(text, i.span) for i in plan.items] == ["Danger", "Rolling Stone", "power"]
    assert span_text(text, plan.span) == "cards"


@pytest.mark.parametrize(
    "text,words",
    [
        ("- Danger\n", "a plan is a mapping"),
        ("cards: [Danger]\ntreasure: [gold]\n", "unknown key `treasure`"),
        ("cards:\n  - {copies: 2}\n", "has no `name`"),
        ("cards:\n  - {name: Danger, copies: 0}\n", "`copies` must be a whole number, 1 or more"),
        ("cards:\n  - {name: Danger, copies: two}\n", "`copies` must be a whole number"),
        ("cards:\n  - 12\n", "a card must be a name"),
        ("cards: [[Danger]]\n", "a card is a name or"),
        ("cards: [Danger\n", "not valid YAML"),
    ],
)
def test_load_plan_refuses_what_is_not_a_plan(text, words):
    with pytest.raises(PlanError, match=None) as caught:
        load_plan(text, "p.yaml")
    assert words in str(caught.value)
    assert str(caught.value).startswith("p.yaml")


def test_an_empty_list_is_an_empty_plan():
    assert load_plan("cards:\ndark_glyphs: []\n", "p.yaml").items == ()


# ---- pricing --------------------------------------------------------------------------------------


def test_the_quest_plan_and_a_yaml_plan_price_alike():
    model = check_file(RUINS).model
    yaml_plan = load_plan("cards:\n  - {name: Rolling Stone, copies: 2}\n  - Danger\n", "p.yaml")
    priced, found = check_plan(yaml_plan, model, model.expansions)
    assert priced.spent == {"event": 1, "trap": 6, "monster": 0}
    assert priced.left == {"event": 1, "trap": 0, "monster": 2}
    assert (priced.unspent, priced.extra_cards, priced.over) == (3, 1, {})
    assert [d.code for d in found] == ["Q407"]


def test_from_syntax_points_the_plan_at_its_keyword():
    source = RUINS.read_text().replace("victory", 'overlord {\n  card "Danger" x2\n}\nvictory')
    result = check_source(source, "ruins.quest")
    plan = DeckPlan.from_syntax(result.model.overlord)
    assert span_text(source, plan.span) == "overlord"
    assert [(i.name, i.copies) for i in plan.items] == [("Danger", 2)]


def test_the_copies_declared_owned_are_counted(tmp_path, monkeypatch):
    """The books do not count Rolling Stone's copies (no check); a box that declares one makes two
    copies in a plan an error that names the declaration."""
    plan = tmp_path / "two.yaml"
    plan.write_text("cards:\n  - {name: Rolling Stone, copies: 2}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "Q402" not in deck(RUINS, plan).output
    (tmp_path / "questc.toml").write_text('[owned.cards]\n"Rolling Stone" = 1\n', encoding="utf-8")
    result = deck(RUINS, plan)
    assert result.exit_code == 1, result.output
    assert "the plan takes 2 copies, but you own 1 (declared in questc.toml:1)" in result.output
