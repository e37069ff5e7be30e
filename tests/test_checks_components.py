"""Q401-Q408: figures, map pieces and markers against the owned sets; treachery budgets and deck plans."""

from __future__ import annotations

import pytest
from helpers import assert_codes, render, span_text

from questc.api import check_source
from questc.diagnostics import Severity
from questc.options import Options
from questc.rules import descriptors, family_rules

# Only this family (the syntax and name errors always show): the map checks of other
# families have their own tests. Infos too, for Q406 and Q407.
Q4 = Options(select=("Q4",), verbose=True)


def quest(
    area: str = "",
    tail: str = "",
    *,
    sets: str = "base, well_of_darkness",
    treachery: str | None = "event 4, trap 3, monster 3",
    edition: str = "first",
    players: str = "2..5",
    pieces: str = "piece R1 room_6x6 at 0,0",
    area_pieces: str = "R1",
) -> str:
    """A small valid quest: one 6x6 hall (x, y 0..5) with an active glyph at 0,0 and the chief at 5,5."""
    budget = f"\n  treachery {treachery}" if treachery else ""
    return (
        f'quest "Q" {{\n  edition {edition}\n  expansions {sets}\n  players {players}\n  conquest 3{budget}\n}}\n'
        f"{pieces}\n"
        f'area A "Hall" start {{\n  pieces {area_pieces}\n  glyph at 0,0 active\n{area}  named chief at 5,5\n}}\n'
        f'named chief "Chief" beastman {{ conquest 1 }}\n{tail}'
        f"victory heroes when killed chief\n"
    )


def _tmp():
    import tempfile
    from pathlib import Path

    return Path(tempfile.mkdtemp(prefix="questc-pack-"))


def check4(source: str, *codes: str, owned: tuple[str, ...] | None = None):
    options = Options(select=("Q4",), verbose=True, owned_sets=owned)
    return assert_codes(source, *codes, options=options)


def only(result, code):
    found = [d for d in result.diagnostics if d.code == code]
    assert len(found) == 1, render(result)
    return found[0]


# ---- Q403 figures ---------------------------------------------------------------------------


def test_q403_more_golems_than_the_box_holds_is_an_error_at_the_one_too_many():
    source = quest("  monster golem at 0,2 2,2 4,2\n")
    d = only(check4(source, "Q403"), "Q403")
    assert d.severity is Severity.ERROR  # The Well of Darkness rule book counts its golems
    assert "3 normal golem figures" in d.message and "hold 2" in d.message
    assert span_text(source, d.span) == "4,2"
    # the counted ones: one label a line, at the last of them
    assert [(span_text(source, label.span), label.message) for label in d.labels] == [("2,2", "2 of 2")]


def test_q403_fixed_two_golems_and_a_kobold():
    check4(quest("  monster golem at 0,2 2,2\n  monster kobold at 4,2\n"))


def test_q403_estimated_counts_only_warn():
    # The base game's split of its 39 normal figures over 12 types is an estimate (6 beastmen).
    source = quest("  monster beastman at 0,1 1,1 2,1 3,1 4,1 0,3 1,3\n")
    d = only(check4(source, "Q403"), "Q403")
    assert d.severity is Severity.WARNING


def test_q403_counts_only_the_figures_of_one_player_count():
    # Two golems for every count and a third for 4..5 players: too many with 4 or 5 players.
    source = quest("  monster golem at 0,2 2,2\n  monster golem at 4,2 players 4..5\n")
    d = only(check4(source, "Q403"), "Q403")
    assert "with 4 or 5 players" in d.message
    # One for 2..3 and one for 4..5 never stand together: two at most.
    check4(quest("  monster golem at 0,2\n  monster golem at 2,2 players 2..3\n  monster golem at 4,2 players 4..5\n"))


def test_q403_a_named_monster_stands_on_a_master_figure():
    # One master golem in the box: a named golem and a master golem are one too many.
    source = quest(
        "  monster golem master at 0,2\n  named boss at 2,2\n", 'named boss "Boss" golem { conquest 2 }\n'
    ).replace("victory heroes when killed chief", "victory heroes when killed boss")
    d = only(check4(source, "Q403"), "Q403")
    assert "master golem" in d.message
    assert span_text(source, d.span) == "2,2"
    assert d.label.startswith("named `boss` stands on a master golem")
    assert [span_text(source, label.span) for label in d.labels] == ["0,2"]


def test_q403_counts_against_the_sets_the_user_owns():
    # The quest lists The Well of Darkness, but a user who owns only the base game has no kobolds.
    source = quest("  monster kobold at 2,2\n")
    check4(source)
    d = only(check4(source, "Q403", owned=("base",)), "Q403")
    assert "hold 0" in d.message and "(base)" in d.message


# ---- Q404 map pieces ------------------------------------------------------------------------


def rooms(count: int, sets: str) -> str:
    pieces = "\n".join(f"piece R{i} room_4x4 at {4 * i},0" for i in range(count))
    names = ", ".join(f"R{i}" for i in range(count))
    return (
        f'quest "Q" {{\n  expansions {sets}\n  conquest 3\n}}\n{pieces}\n'
        f'area A "Hall" start {{\n  pieces {names}\n  glyph at 0,0 active\n}}\n'
        "victory heroes when revealed A\n"
    )


def test_q404_eleven_rooms_are_one_more_than_the_base_game_holds():
    source = rooms(11, "base")
    d = only(check4(source, "Q404"), "Q404")
    assert d.severity is Severity.ERROR
    assert "11 room pieces" in d.message and "hold 10" in d.message
    assert span_text(source, d.span) == "R10"


def test_q404_fixed_by_the_well_of_darkness_room():
    check4(rooms(11, "base, well_of_darkness"))
    check4(rooms(10, "base"))


# ---- Q405 markers -------------------------------------------------------------------------


def test_q405_eight_doors_are_one_more_than_the_base_game_holds():
    doors = "".join(f"door d{i} at {i % 6},{i // 6} north\n" for i in range(8))
    source = quest(tail=doors)
    d = only(check4(source, "Q405"), "Q405")
    assert "8 doors" in d.message and "hold 7" in d.message
    assert span_text(source, d.span) == "d7"
    check4(quest(tail=doors.replace("door d7 at 1,1 north\n", "")))


def test_q405_rune_doors_are_counted_by_colour():
    source = quest(tail="door a at 0,0 north rune red\ndoor b at 2,0 north rune red\n")
    d = only(check4(source, "Q405"), "Q405")
    assert "2 red rune doors" in d.message and "hold 1" in d.message
    check4(quest(tail="door a at 0,0 north rune red\ndoor b at 2,0 north rune blue\n"))


def test_q405_a_stairs_statement_is_two_staircase_markers():
    pairs = "".join(f"stairs s{i} at {i},1 {i},3\n" for i in range(4))  # 8 markers
    check4(quest(tail=pairs, sets="base"), "Q405")
    check4(quest(tail=pairs))  # The Well of Darkness adds 2
    check4(quest(tail=pairs.replace("stairs s3 at 3,1 3,3\n", ""), sets="base"))


def test_q405_relics_chests_and_potions():
    relics = "".join(f"  relic r{i} at {i},1\n" for i in range(5))
    d = only(check4(quest(relics, sets="base"), "Q405"), "Q405")
    assert "5 relic markers" in d.message
    assert [label.message for label in d.labels] == ["1 of 4", "2 of 4", "3 of 4", "4 of 4"]  # one a line
    check4(quest(relics))  # The Well of Darkness adds 6 relic markers
    chests = "  chest copper at " + " ".join(f"{x},2" for x in range(6)) + "\n  chest gold at 0,3 1,3 2,3\n"
    d = only(check4(quest(chests), "Q405"), "Q405")
    assert "9 chest markers" in d.message and "hold 8" in d.message
    potions = "  treasure healing at " + " ".join(f"{x},{y}" for y in (1, 2) for x in range(5)) + "\n"
    d = only(check4(quest(potions), "Q405"), "Q405")
    assert "10 " in d.message and "hold 9" in d.message
    check4(quest(potions.replace(" 4,2\n", "\n")))


def test_q405_runekeys_are_an_estimate_so_two_red_keys_warn():
    result = check4(quest("  runekey red at 1,1\n  runekey red at 2,2\n"), "Q405")
    assert only(result, "Q405").severity is Severity.WARNING


# ---- the box owned: estimates said so, and counts declared ([owned]) -----------------------


def declared(**tables):
    """A Declared as the configuration gives it (what questc.config makes of an `[owned]` table)."""
    from questc.catalog.owned import Declared

    return Declared(**{"origin": "questc.toml:3", "config_file": "questc.toml", **tables})


def check_owned(source: str, *codes: str, owned_counts=None, owned: tuple[str, ...] | None = None):
    options = Options(select=("Q4",), verbose=True, owned_sets=owned, owned_counts=owned_counts)
    return assert_codes(source, *codes, options=options)


BEASTMEN = "  monster beastman at 0,1 1,1 2,1 3,1 4,1 0,3 1,3\n"  # 7; the base game's 6 is an estimate


def test_an_estimated_count_says_so_and_where_to_declare_the_real_one():
    d = only(check_owned(quest(BEASTMEN), "Q403"), "Q403")
    assert d.severity is Severity.WARNING
    assert d.message.endswith("but the sets owned (base, well_of_darkness) hold an estimated 6")
    assert "6 is questc's estimate" in d.help
    assert "declare it as `beastman = { normal = N }` under [owned.figures] in a questc.toml" in d.help
    # with a configuration, the hint names it in its own form
    in_pyproject = declared(pyproject=True, config_file="pyproject.toml")
    d = only(check_owned(quest(BEASTMEN), "Q403", owned_counts=in_pyproject), "Q403")
    assert "under [tool.questc.owned.figures] in pyproject.toml" in d.help
    # a rule book's count is stated as a fact, with no hint
    d = only(check_owned(quest("  monster golem at 0,2 2,2 4,2\n"), "Q403"), "Q403")
    assert d.message.endswith("hold 2") and "estimate" not in d.message + (d.help or "")
    # runekeys (Q405) and second edition tiles (Q404) are estimates too
    d = only(check_owned(quest("  runekey red at 1,1\n  runekey red at 2,2\n"), "Q405"), "Q405")
    assert "hold an estimated 1" in d.message and "`runekey = N` under [owned.markers]" in d.help


def test_a_declared_count_is_counted_against_and_is_an_error_when_exceeded():
    # eight beastmen owned: seven are fine
    check_owned(quest(BEASTMEN), owned_counts=declared(figures={"beastman": {"normal": 8}}))
    # five owned: an error (the writer's own count is no estimate), saying where it was declared
    d = only(check_owned(quest(BEASTMEN), "Q403", owned_counts=declared(figures={"beastman": {"normal": 5}})), "Q403")
    assert d.severity is Severity.ERROR
    assert d.message.endswith("but you own 5 (declared in questc.toml:3)") and "estimate" not in (d.help or "")
    # a master count declared leaves the normal figures to the catalog
    d = only(check_owned(quest(BEASTMEN), "Q403", owned_counts=declared(figures={"beastman": {"master": 4}})), "Q403")
    assert "an estimated 6" in d.message
    # rooms, doors, rune doors by colour, treasures
    check_owned(rooms(12, "base"), owned_counts=declared(pieces={"room": 12}))
    check_owned(rooms(12, "base"), "Q404", owned_counts=declared(pieces={"room": 11}))
    doors = "".join(f"door d{i} at {i % 6},{i // 6} north\n" for i in range(8))
    check_owned(quest(tail=doors), owned_counts=declared(markers={"door": 8}))
    two_red = "door a at 0,0 north rune red\ndoor b at 2,0 north rune red\n"
    check_owned(quest(tail=two_red), owned_counts=declared(markers={"rune_door": 6}))  # two of each colour
    d = only(check_owned(quest(tail=two_red), "Q405", owned_counts=declared(markers={"rune_door": 3})), "Q405")
    assert "2 red rune doors" in d.message and "you own 1 (declared" in d.message
    potions = "  treasure healing at " + " ".join(f"{x},{y}" for y in (1, 2) for x in range(5)) + "\n"
    check_owned(quest(potions), owned_counts=declared(treasures={"healing": 10}))


def test_copies_of_a_set_multiply_what_it_holds():
    check_owned(rooms(20, "base"), owned_counts=declared(copies={"base": 2}))
    d = only(check_owned(rooms(21, "base"), "Q404", owned_counts=declared(copies={"base": 2})), "Q404")
    assert d.message.endswith("but the sets owned (2 x base) hold 20")
    d = only(check_owned(quest(BEASTMEN * 2), "Q403", owned_counts=declared(copies={"base": 2})), "Q403")
    assert "(2 x base, well_of_darkness) hold an estimated 12" in d.message
    # a set named but not counted (not owned, not the quest's) adds nothing
    check_owned(rooms(11, "base"), "Q404", owned_counts=declared(copies={"well_of_darkness": 5}))


def test_second_edition_tokens_can_be_declared():
    from questc.rules.second_examples import second

    ten = second("  villager at " + " ".join(f"{x},{y}" for y in range(3) for x in range(3)) + " 3,0\n")
    d = only(check_owned(ten, "Q410"), "Q410")
    assert "hold 8" in d.message and d.severity is Severity.ERROR
    check_owned(ten, owned_counts=declared(markers={"villager": 10}))
    check_owned(ten, owned_counts=declared(copies={"second_edition": 2}))


def test_a_declared_box_governs_the_groups_the_overlord_places():
    from questc.rules.second_examples import second

    # a group of as many zombies as heroes (4 with 5 players) and one more at a point: 5 normal zombies
    five = second("  group zombie on T minions heroes\n  monster zombie at 0,0\n")
    d = only(check_owned(five, "Q403"), "Q403")
    assert "5 normal zombie figures" in d.message and "hold 4" in d.message
    check_owned(five, owned_counts=declared(figures={"zombie": {"normal": 5}}))
    check_owned(five, owned_counts=declared(copies={"second_edition": 2}))
    d = only(check_owned(five, "Q403", owned_counts=declared(figures={"zombie": {"normal": 3}})), "Q403")
    assert d.severity is Severity.ERROR and d.message.endswith("but you own 3 (declared in questc.toml:3)")
    # the group alone, 4 figures, is over a box declared to hold 3 already
    four = second("  group zombie on T minions heroes\n")
    check_owned(four)
    only(check_owned(four, "Q403", owned_counts=declared(figures={"zombie": {"normal": 3}})), "Q403")


# ---- Q401, Q402 deck plans in the quest ---------------------------------------------------


def plan(*lines: str) -> str:
    return "overlord {\n" + "".join(f"  {line}\n" for line in lines) + "}\n"


def test_q401_rolling_stone_costs_more_trap_than_the_budget():
    source = quest(tail=plan('card "Rolling Stone"'), treachery="event 5, trap 2, monster 5")
    d = only(check4(source, "Q401"), "Q401")
    assert d.message == "the deck plan spends 3 trap treachery, but the quest's budget gives 2"
    assert span_text(source, d.span) == '"Rolling Stone"'
    assert [span_text(source, label.span) for label in d.labels] == ["trap 2"]
    assert "take 1 trap treachery out" in d.help


def test_q401_points_at_the_card_that_goes_over_and_labels_the_rest():
    source = quest(
        tail=plan('card "Danger"', 'card "Empower"', 'card "Danger"'), treachery="event 2, trap 4, monster 4"
    )
    d = only(check4(source, "Q401"), "Q401")
    lines = source.splitlines()
    assert d.span.line == len(lines) - lines[::-1].index('  card "Danger"')  # the second Danger
    assert {span_text(source, label.span) for label in d.labels} == {'"Danger"', '"Empower"', "event 2"}


def test_q401_dark_glyphs_cost_two_of_their_colour():
    sets = "base, well_of_darkness, altar_of_despair"
    glyph = "  glyph at 3,0\n"  # a glyph that starts inactive, for the dark glyph (Q409)
    check4(quest(glyph, plan("dark_glyph summoning"), sets=sets, treachery="event 5, trap 4, monster 1"), "Q401")
    check4(quest(glyph, plan("dark_glyph summoning"), sets=sets, treachery="event 5, trap 5, monster 2"), "Q407")


def test_q401_a_colour_missing_from_the_budget_is_zero():
    source = quest(tail=plan('card "Danger"'), treachery="trap 6, monster 4")
    d = only(check4(source, "Q401"), "Q401")
    assert "gives 0" in d.message
    assert d.labels[-1].message.startswith("no event treachery here")


def test_q401_fixed_within_the_budget():
    check4(quest(tail=plan('card "Rolling Stone"', 'card "Danger" x2'), treachery="event 2, trap 3, monster 5"), "Q407")


def test_q402_a_base_deck_card_has_no_treachery_cost():
    source = quest(tail=plan('card "Ferrox Tribe"'))
    d = only(check4(source, "Q402", "Q407"), "Q402")
    assert "no treachery cost" in d.message
    assert span_text(source, d.span) == '"Ferrox Tribe"'


# A pack card with a treachery cost and a counted number of copies, for the copy checks
# (no built-in treachery card has a count the rule books state).
CARD_PACK = """description: one counted treachery card
set: tidepack
sets:
  tidepack:
    title: Tide pack
cards:
  Undertow:
    type: event
    treachery: {colour: green, cost: 1}
    copies: {count: 1, source: rulebook}
"""


def check4_with_pack(tmp_path, source: str, *codes: str, owned=None, owned_counts=None, pack: str = CARD_PACK):
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "tide.yaml").write_text(pack, encoding="utf-8")
    source = source.replace("  conquest 3", '  conquest 3\n  use "tide.yaml"', 1)
    return assert_codes(
        source,
        *codes,
        path=str(tmp_path / "q.quest"),
        options=Options(select=("Q4",), verbose=True, owned_sets=owned, owned_counts=owned_counts),
    )


def test_q402_a_base_deck_card_is_reported_once_whatever_its_copies():
    # No treachery cost is the cause; how many copies it takes is beside the point.
    result = check4(quest(tail=plan('card "Kobold Swarm" x3')), "Q402", "Q407")
    assert "no treachery cost" in only(result, "Q402").message


def test_q402_copies_beyond_the_box():
    sets = "base, well_of_darkness, tidepack"
    result = check4_with_pack(_tmp(), quest(tail=plan('card "Undertow" x2'), sets=sets), "Q402", "Q407")
    assert (
        "takes 2 copies, but the sets owned (base, well_of_darkness, tidepack) hold 1" in only(result, "Q402").message
    )


def test_q402_copies_declared_estimated_and_of_two_sets():
    sets = "base, well_of_darkness, tidepack"
    two = quest(tail=plan('card "Undertow" x2'), sets=sets)
    check4_with_pack(_tmp(), two, "Q407", owned_counts=declared(cards={"Undertow": 2}))
    check4_with_pack(_tmp(), two, "Q407", owned_counts=declared(copies={"tidepack": 2}))
    d = only(
        check4_with_pack(
            _tmp(),
            quest(tail=plan('card "Undertow" x3'), sets=sets),
            "Q402",
            "Q407",
            owned_counts=declared(cards={"Undertow": 2}),
        ),
        "Q402",
    )
    assert "takes 3 copies, but you own 2 (declared in questc.toml:3)" in d.message
    assert d.severity is Severity.ERROR
    # a pack's estimate: a warning that says so and where to declare the real count
    estimated = CARD_PACK.replace("source: rulebook", "source: estimate")
    d = only(check4_with_pack(_tmp(), two, "Q402", "Q407", pack=estimated), "Q402")
    assert d.severity is Severity.WARNING and "hold an estimated 1" in d.message
    assert '`"Undertow" = N` under [owned.cards]' not in d.help and "`Undertow = N` under [owned.cards]" in d.help


def test_q402_copies_are_summed_over_lines():
    sets = "base, well_of_darkness, tidepack"
    result = check4_with_pack(_tmp(), quest(tail=plan('card "Undertow"', 'card "Undertow"'), sets=sets), "Q402", "Q407")
    lines = [i for i, line in enumerate(result.source.splitlines(), 1) if line == '  card "Undertow"']
    assert only(result, "Q402").span.line == lines[-1]  # the line that goes over, once


def test_q402_a_card_from_a_set_the_user_does_not_own():
    source = quest(tail=plan('card "Danger"'))
    result = check4(source, "Q402", "Q407", owned=("base",))
    assert any("not among the sets owned (base)" in d.message for d in result.diagnostics)


def test_q402_a_cost_the_books_do_not_state_is_not_guessed():
    sets = "base, well_of_darkness, altar_of_despair"
    d = only(check4(quest(tail=plan('card "Dark Relic"'), sets=sets), "Q402", "Q407"), "Q402")
    assert "not known" in d.message


def test_q402_fixed_a_card_with_a_treachery_cost():
    check4(
        quest(
            tail=plan('card "Danger"', 'card "Empower"', 'card "Rolling Stone"'), treachery="event 2, trap 3, monster 4"
        ),
        "Q407",
    )


# ---- Q406, Q407, Q408 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "budget,codes",
    [
        ("event 8, trap 8, monster 8", ("Q406",)),
        ("event 2, trap 2, monster 2", ("Q406",)),
        ("event 3, trap 3, monster 3", ()),
        ("event 4, trap 4, monster 4", ()),
    ],
)
def test_q406_budget_totals_outside_9_to_12(budget, codes):
    result = check4(quest(treachery=budget), *codes)
    if codes:
        d = only(result, "Q406")
        assert d.severity is Severity.INFO
        assert span_text(result.source, d.span).startswith("treachery ")


def test_q407_unspent_points_buy_extra_starting_cards():
    source = quest(tail=plan('card "Danger"'), treachery="event 4, trap 3, monster 3")
    d = only(check4(source, "Q407"), "Q407")
    assert d.severity is Severity.INFO
    assert "leaves 9 treachery unspent (event 3, trap 3, monster 3)" in d.message
    assert "4 extra cards, 7 in hand" in d.message
    assert span_text(source, d.span) == "overlord"


def test_q407_at_most_a_full_hand_of_eight():
    d = only(check4(quest(tail=plan('card "Danger"'), treachery="event 8, trap 8, monster 8"), "Q406", "Q407"), "Q407")
    assert "5 extra cards, 8 in hand" in d.message


def test_q407_one_point_buys_nothing_and_a_spent_budget_says_nothing():
    d = only(
        check4(quest(tail=plan('card "Rolling Stone"'), treachery="event 1, trap 3, monster 0"), "Q406", "Q407"), "Q407"
    )
    assert "too little" in d.message
    check4(quest(tail=plan('card "Rolling Stone"', 'card "Danger"'), treachery="event 1, trap 3, monster 0"), "Q406")


def test_q407_not_reported_when_over_budget():
    check4(quest(tail=plan('card "Rolling Stone"'), treachery="event 5, trap 2, monster 5"), "Q401")


def test_q408_a_deck_plan_for_a_quest_with_no_treachery():
    source = quest(tail=plan('card "Danger"'), treachery=None)
    d = only(check4(source, "Q408"), "Q408")
    assert span_text(source, d.span) == "overlord"
    assert span_text(source, d.labels[0].span) == '"Q"'


def test_q408_treachery_in_a_second_edition_quest():
    from questc.rules.second_examples import HEAD, second

    source = second(head=HEAD.replace("edition second\n", "edition second\n  treachery event 4, trap 4, monster 4\n"))
    d = only(check4(source, "Q408"), "Q408")
    assert span_text(source, d.span) == "treachery event 4, trap 4, monster 4"
    check4(second())


AOD = "base, well_of_darkness, altar_of_despair"


def test_q409_a_dark_glyph_with_only_the_active_glyph_to_hide_among():
    source = quest(tail=plan("dark_glyph summoning"), sets=AOD, treachery="event 4, trap 3, monster 2")
    d = only(check4(source, "Q409", "Q407"), "Q409")
    assert d.severity is Severity.ERROR
    assert span_text(source, d.span) == "summoning"
    assert d.message == "the deck plan lays 1 dark glyph, but none of the quest's glyphs start inactive"
    assert [(span_text(source, label.span), label.message) for label in d.labels] == [
        ("0,0", "active at the start: may not be dark")
    ]
    assert "add a glyph that starts inactive" in d.help and "take a dark glyph out" in d.help


def test_q409_points_at_the_first_dark_glyph_without_a_glyph():
    source = quest(
        "  glyph at 3,0\n",
        plan("dark_glyph summoning", "dark_glyph power", "dark_glyph sundered"),
        sets=AOD,
        treachery="event 4, trap 4, monster 4",
    )
    d = only(check4(source, "Q409", "Q407"), "Q409")
    assert span_text(source, d.span) == "power"
    assert d.message == "the deck plan lays 3 dark glyphs, but only 1 of the quest's glyphs starts inactive"
    assert [span_text(source, label.span) for label in d.labels] == ["sundered", "0,0"]
    assert "add 2 glyphs that start inactive" in d.help


def test_q409_fixed_one_inactive_glyph_per_dark_glyph():
    source = quest(
        "  glyph at 3,0\n  glyph at 3,2\n",
        plan("dark_glyph summoning", "dark_glyph power"),
        sets=AOD,
        treachery="event 4, trap 4, monster 4",
    )
    check4(source, "Q407")
    # Near misses: no dark glyph at all, and an unknown dark glyph (Q101, not counted).
    check4(quest(tail=plan('card "Danger"'), sets=AOD, treachery="event 4, trap 3, monster 3"), "Q407")
    check4(quest(tail=plan("dark_glyph summon"), sets=AOD, treachery="event 4, trap 3, monster 3"), "Q101")


# ---- the pages --------------------------------------------------------------------------------


FAMILY = [rule.descriptor for rule in family_rules("components")]


def test_the_family_is_its_table():
    """Every Q4 code is in the components family's table, in code order (the table says which)."""
    codes = [d.code for d in FAMILY]
    assert codes and codes == sorted(codes) and codes == [c for c in descriptors() if c.startswith("Q4")]


@pytest.mark.parametrize("descriptor", FAMILY, ids=lambda d: d.code)
def test_q4_pages_failing_example_reports_the_code_and_fixed_does_not(descriptor):
    failing = check_source(descriptor.example.failing, "failing.quest", Q4)
    assert descriptor.code in {d.code for d in failing.diagnostics}, render(failing)
    fixed = check_source(descriptor.example.fixed, "fixed.quest", Q4)
    assert descriptor.code not in {d.code for d in fixed.diagnostics}, render(fixed)
    assert not fixed.errors, render(fixed)


@pytest.mark.parametrize("descriptor", FAMILY, ids=lambda d: d.code)
def test_q4_templates_use_exactly_their_fields(descriptor):
    assert descriptor.placeholders() == set(descriptor.fields)
    assert descriptor.code in descriptor.page()
