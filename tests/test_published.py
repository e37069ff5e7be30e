"""The published second edition maps (tests/fixtures/published, made by its make.py from a public game
framework's data: the Heirs of Blood campaign's encounters, their tiles, monster groups, lieutenants, open
groups, traits and acts): questc builds each as placed, says nothing against the maps the data gives whole,
finds what is wrong with the two it gives broken, and checks the campaign's quests of several encounters
together. Acolyte of Saradyn carries its rules too (groups, tokens, a counter, reinforcements)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import REPO

from questc.api import check_file, check_sets
from questc.options import Options

PUBLISHED = REPO / "tests" / "fixtures" / "published"
MAPS = sorted(PUBLISHED.glob("*.quest"))

# The two maps the data gives inconsistent (they cannot be placed as written): questc's findings on them.
BROKEN = {
    "dead_or_drowning.quest": Counter({"Q215": 2}),  # 23A and 9A do not meet as the graph says
    "lord_of_flame_2.quest": Counter({"Q215": 2, "Q201": 1}),  # 25B and 7B placed two ways: they overlap
}


def codes(path: Path) -> Counter:
    result = check_file(path, Options(strict=True))
    return Counter(d.code for d in result.diagnostics if d.severity.value != "info")


def test_the_campaign_is_there():
    assert len(MAPS) == 32
    assert {p.name for p in MAPS} >= {
        "acolyte_of_saradyn.quest",
        "blood_and_betrayal_2a.quest",
        "blood_and_betrayal_2b.quest",
        *BROKEN,
    }


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_a_published_map_lints_clean_unless_the_data_breaks_it(path):
    """No false positive on a real map: whole maps draw no error and no warning, under --strict (joined
    or capped connections, groups with room, open groups with a choice, everything within reach and in
    the box); each broken one draws exactly what is wrong with it."""
    assert codes(path) == BROKEN.get(path.name, Counter())


def test_the_campaign_s_encounters_checked_together():
    """The quests of several encounters agree (numbers, spelling, headers); Blood and Betrayal's two
    alternatives are the only finding: the data says no victory of its first encounter leads to either."""
    options = Options()
    results = check_sets([check_file(p, options) for p in MAPS], options, [PUBLISHED])
    found = sorted((Path(r.path).name, d.code) for r in results for d in r.diagnostics if d.code.startswith("Q8"))
    assert found == [("blood_and_betrayal_2a.quest", "Q806"), ("blood_and_betrayal_2b.quest", "Q806")]


def test_the_box_holds_what_the_published_maps_use():
    """The most end caps, extenders and transitions any map uses fit the box's estimate (Q404 is silent)."""
    most: Counter = Counter()
    for path in MAPS:
        model = check_file(path).model
        used = Counter(p.type.kind for p in model.pieces.values() if p is not None)
        for kind in ("end_cap", "extender", "transition", "entrance", "exit"):
            most[kind] = max(most[kind], used[kind])
    assert most["extender"] == 6 and most["end_cap"] == 5
    catalog = check_file(MAPS[0]).model.catalog
    for kind, count in most.items():
        assert catalog.pieces_owned(kind, ["second_edition"]).count >= count, kind


def test_acolyte_of_saradyn_says_its_rules():
    model = check_file(PUBLISHED / "acolyte_of_saradyn.quest").model
    assert model.roles == {"entrance": ("Out1",)} and model.act == 1
    assert [g.id for g in model.groups.values()] == ["goblin_archer", "barghest"]
    assert [(c.who, c.amount, c.stat.value) for c in model.groups["barghest"].changes] == [("all", 2, "health")]
    assert [(t.kind, t.placement, t.count.heroes) for t in model.tokens] == [
        ("villager", "on", True),
        ("search", "among", True),
        ("objective", "carried", False),
    ]
    assert list(model.counters) == ["fatigue"]
    assert [(t.event, t.phase, t.every) for t in model.triggers] == [
        ("each", "start", "overlord turn"),
        ("each", "end", "overlord turn"),
        ("each", "end", "overlord turn"),
    ]


@pytest.mark.slow
def test_valkyries_loader_loads_every_published_map_exported(tmp_path):
    """The Valkyrie export of the published maps (the campaign's quests of several encounters as one
    quest each): Valkyrie's own loader reads every one without a problem. Lord of Flame's second
    encounter has an error (its tiles overlap): it is left out, the rest written."""
    from valkyrie_tools import load

    from questc.build import build

    report = build([PUBLISHED], tmp_path, kinds=["valkyrie"])
    assert not report.problems
    failed = sorted(Path(r.path).name for r in report.results if r.errors)
    assert failed == ["lord_of_flame_2.quest"]
    folders = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(folders) == 19
    for folder in folders:
        loaded = load(folder)
        assert loaded.code == 0 and loaded.problems == 0, (folder.name, loaded.output)
