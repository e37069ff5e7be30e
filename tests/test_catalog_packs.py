"""Content packs: merging, the Q106 problems a pack can have, and confinement to the project root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from questc.catalog import Count, load_catalog
from questc.diagnostics import Severity, Span

PACKS = Path(__file__).resolve().parent / "fixtures" / "packs"
PROJECT = PACKS / "project"


def use(path: str, line: int = 3, base_dir: Path = PROJECT):
    """A `use "path"` statement's pack triple, with a span on the given line."""
    return (path, Span("quest.quest", line, 3, line, 9 + len(path)), base_dir)


def only(diagnostics):
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    (diagnostic,) = diagnostics
    assert diagnostic.code == "Q106" and diagnostic.severity is Severity.ERROR
    return diagnostic


# --- merging ----------------------------------------------------------------------


def test_pack_adds_a_piece_type_used_by_lookups():
    catalog, diagnostics = load_catalog([use("crypt.yaml")], root=PROJECT)
    assert diagnostics == []
    hall = catalog.lookup("piece", "crypt_hall")
    assert hall is not None and hall.set == "sunken_crypt" and hall.kind == "room"
    assert (hall.width, hall.height) == (6, 4) and len(hall.cells) == 20
    placed = hall.placed((10, 0), 90)
    assert (placed.width, placed.height) == (4, 6)
    assert {o.side for o in placed.openings} == {"east", "south", "west"}
    # Built-in entries are still there, unchanged.
    assert catalog.lookup("piece", "room_4x4") is load_catalog()[0].pieces["room_4x4"]
    assert catalog.suggest("piece", "crypt_hal") == "crypt_hall"


def test_pack_adds_monsters_props_cards_and_sets():
    catalog, diagnostics = load_catalog([use("crypt.yaml")], root=PROJECT)
    assert diagnostics == []
    wraith = catalog.monsters["wraith"]
    assert (wraith.set, wraith.normal, wraith.master) == ("sunken_crypt", Count(3, "rulebook"), Count(1, "rulebook"))
    assert wraith.stats["master"]["wounds"] == 9
    slab = catalog.lookup("trap", "falling_slab")
    assert slab.trap and slab.facing and slab.set == "slab_works"  # a per-entry set
    card = catalog.cards["Grave Chill"]
    assert (card.type, card.treachery_colour, card.treachery_cost, card.treachery_kind) == (
        "event",
        "green",
        2,
        "event",
    )
    assert catalog.markers["candle"].count == Count(4, "estimate")
    # The pack's set adds staircases to the built-in marker kind.
    assert catalog.markers_owned("staircase", ["base", "sunken_crypt"]) == Count(8, "rulebook")
    assert catalog.pieces_owned("room", ["base", "sunken_crypt"]) == Count(11, "rulebook")
    crypt = catalog.sets["sunken_crypt"]
    assert crypt.title == "The Sunken Crypt" and crypt.pack == "crypt.yaml"
    assert catalog.sets["slab_works"].pack == "crypt.yaml"
    assert catalog.lookup("set", "slab_works") is not None


def test_packs_never_touch_the_cached_built_in_catalog():
    before, _ = load_catalog()
    load_catalog([use("crypt.yaml")], root=PROJECT)
    after, _ = load_catalog()
    assert after is before
    assert "wraith" not in after.monsters and "sunken_crypt" not in after.sets


def test_pack_set_needs_listing_in_expansions():
    catalog, _ = load_catalog([use("crypt.yaml")], root=PROJECT, expansions=["base", "sunken_crypt"])
    wraith = catalog.monsters["wraith"]
    span = Span("quest.quest", 9, 11, 9, 17)
    assert catalog.set_check("monster", "wraith", wraith.set, None, span) is None
    diagnostic = catalog.set_check("monster", "wraith", wraith.set, ["base"], span)
    assert diagnostic.code == "Q104" and "`sunken_crypt`" in diagnostic.message


def test_pack_in_a_subfolder_relative_to_the_quest():
    catalog, diagnostics = load_catalog([use("sub/nested.yaml")], root=PROJECT)
    assert diagnostics == []
    assert catalog.lookup("obstacle", "cobwebs").blocks_sight


def test_the_same_pack_named_twice_loads_once():
    catalog, diagnostics = load_catalog([use("crypt.yaml"), use("./sub/../crypt.yaml", line=4)], root=PROJECT)
    assert diagnostics == []
    assert "wraith" in catalog.monsters


def test_default_root_is_the_pack_base_folder():
    _, diagnostics = load_catalog([use("crypt.yaml")])
    assert diagnostics == []


# --- what a pack cannot do ---------------------------------------------------------------


def test_missing_pack():
    catalog, diagnostics = load_catalog([use("nowhere.yaml", line=5)], root=PROJECT)
    diagnostic = only(diagnostics)
    assert diagnostic.message == "content pack `nowhere.yaml`: no such file"
    assert diagnostic.span.line == 5  # the `use` statement
    assert "nowhere" not in str(catalog.sets)


def test_missing_pack_without_a_span_points_at_the_pack_file():
    _, diagnostics = load_catalog([("nowhere.yaml", None, PROJECT)], root=PROJECT)
    diagnostic = only(diagnostics)
    assert diagnostic.span == Span(str(PROJECT / "nowhere.yaml"), 1, 1, 1, 2)


def test_a_folder_is_not_a_pack():
    diagnostic = only(load_catalog([use("sub")], root=PROJECT)[1])
    assert "is a folder" in diagnostic.message


def test_bad_yaml():
    diagnostic = only(load_catalog([use("bad_yaml.yaml")], root=PROJECT)[1])
    assert diagnostic.message.startswith("content pack `bad_yaml.yaml`: is not valid YAML")
    assert "line 4" in diagnostic.message


def test_duplicate_yaml_key_in_a_pack():
    diagnostic = only(load_catalog([use("duplicate_key.yaml")], root=PROJECT)[1])
    assert "'ghoul' appears twice" in diagnostic.message


def test_a_pack_must_be_a_mapping():
    diagnostic = only(load_catalog([use("a_list.yaml")], root=PROJECT)[1])
    assert "not a YAML mapping" in diagnostic.message


def test_schema_invalid_pack_names_the_entry_by_json_pointer():
    catalog, diagnostics = load_catalog([use("schema_invalid.yaml")], root=PROJECT)
    diagnostic = only(diagnostics)
    assert "content pack `schema_invalid.yaml`" in diagnostic.message
    assert "`/monsters/wraith/footprint`" in diagnostic.message
    assert "too short" in diagnostic.message
    assert "wraith" not in catalog.monsters


def test_unknown_key_in_a_pack_is_a_schema_error(tmp_path):
    (tmp_path / "extra.yaml").write_text(
        "set: x\nmonsters:\n  ghoul:\n    footprint: [1, 1]\n    colour: grey\n", encoding="utf-8"
    )
    diagnostic = only(load_catalog([use("extra.yaml", base_dir=tmp_path)], root=tmp_path)[1])
    assert "`/monsters/ghoul`" in diagnostic.message and "'colour' was unexpected" in diagnostic.message


def test_pack_may_not_replace_a_built_in_entry():
    catalog, diagnostics = load_catalog([use("duplicate.yaml")], root=PROJECT)
    diagnostic = only(diagnostics)
    assert "`/monsters/beastman`" in diagnostic.message
    assert "already in the catalog" in diagnostic.message and "built-in" in diagnostic.message
    # All or nothing: the pack's other entry is not merged either.
    assert "ghoul" not in catalog.monsters
    assert catalog.monsters["beastman"].footprint == (1, 1)


def test_two_packs_may_not_define_the_same_name():
    catalog, diagnostics = load_catalog([use("crypt.yaml"), use("clash_with_crypt.yaml", line=4)], root=PROJECT)
    diagnostic = only(diagnostics)
    assert diagnostic.span.line == 4
    assert "`wraith` is already in the catalog (from pack `crypt.yaml`)" in diagnostic.message
    assert catalog.monsters["wraith"].set == "sunken_crypt"
    assert "other_crypt" not in catalog.sets


def test_card_names_clash_regardless_of_case(tmp_path):
    (tmp_path / "cards.yaml").write_text("set: x\ncards:\n  rolling stone: {}\n", encoding="utf-8")
    diagnostic = only(load_catalog([use("cards.yaml", base_dir=tmp_path)], root=tmp_path)[1])
    assert "`/cards/rolling stone`" in diagnostic.message and "Rolling Stone" not in diagnostic.message


def test_opening_off_the_outline_is_refused():
    diagnostic = only(load_catalog([use("bad_opening.yaml")], root=PROJECT)[1])
    assert "`/pieces/crooked_room/openings/0`" in diagnostic.message
    assert "outline" in diagnostic.message


@pytest.mark.parametrize(
    "shape, openings, words",
    [
        (["oo", "o"], [], "same width"),
        ([".o", ".o"], [], "empty outer row or column"),
        (["..", ".."], [], "no floor"),
        (["oo", "o."], [{"side": "east", "cells": [[1, 1], [1, 0]], "end": False}], "1,1 is not floor"),
        (["ooo", "ooo"], [{"side": "north", "cells": [[0, 0], [2, 0]], "end": False}], "not two neighbours"),
        (
            ["oo", "oo"],
            [
                {"side": "north", "cells": [[0, 0], [1, 0]], "end": False},
                {"side": "north", "cells": [[1, 0], [0, 0]], "end": True},
            ],
            "already in another opening",
        ),
    ],
)
def test_piece_geometry_problems(tmp_path, shape, openings, words):
    import yaml

    pack = {"set": "x", "pieces": {"odd": {"kind": "room", "shape": shape, "openings": openings}}}
    (tmp_path / "odd.yaml").write_text(yaml.safe_dump(pack), encoding="utf-8")
    catalog, diagnostics = load_catalog([use("odd.yaml", base_dir=tmp_path)], root=tmp_path)
    assert words in only(diagnostics).message
    assert "odd" not in catalog.pieces


def test_entries_need_a_set():
    diagnostic = only(load_catalog([use("no_set.yaml")], root=PROJECT)[1])
    assert "`/monsters/ghoul`" in diagnostic.message and "names no set" in diagnostic.message


def test_inventory_may_only_count_known_marker_kinds():
    diagnostic = only(load_catalog([use("unknown_marker.yaml")], root=PROJECT)[1])
    assert "`/sets/sunken_crypt/inventory/markers/lantern`" in diagnostic.message


def test_a_pack_may_not_redefine_a_built_in_set(tmp_path):
    (tmp_path / "base_again.yaml").write_text("sets:\n  base: {title: Mine}\n", encoding="utf-8")
    diagnostic = only(load_catalog([use("base_again.yaml", base_dir=tmp_path)], root=tmp_path)[1])
    assert "`/sets/base`" in diagnostic.message


# --- confinement ------------------------------------------------------------------------


def test_path_outside_the_project_root_is_refused():
    # ../outside.yaml exists and is a valid pack, but lies outside the root.
    assert (PACKS / "outside.yaml").is_file()
    catalog, diagnostics = load_catalog([use("../outside.yaml")], root=PROJECT)
    diagnostic = only(diagnostics)
    assert diagnostic.message == "content pack `../outside.yaml`: is outside the project root"
    assert diagnostic.help
    assert "stranger" not in catalog.monsters


def test_absolute_path_outside_the_root_is_refused():
    diagnostic = only(load_catalog([use(str(PACKS / "outside.yaml"))], root=PROJECT)[1])
    assert "outside the project root" in diagnostic.message


def test_absolute_path_inside_the_root_is_fine():
    catalog, diagnostics = load_catalog([use(str(PROJECT / "crypt.yaml"))], root=PROJECT)
    assert diagnostics == [] and "wraith" in catalog.monsters


def test_outside_is_refused_before_looking_for_the_file():
    # A quest must not learn whether files outside the project exist.
    diagnostic = only(load_catalog([use("../../no/such/file.yaml")], root=PROJECT)[1])
    assert "outside the project root" in diagnostic.message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_symlink_out_of_the_root_is_refused(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    try:
        (project / "sneaky.yaml").symlink_to(PACKS / "outside.yaml")
    except OSError:
        pytest.skip("cannot make symlinks")
    diagnostic = only(load_catalog([use("sneaky.yaml", base_dir=project)], root=project)[1])
    assert "outside the project root" in diagnostic.message


def test_quest_folder_below_the_root_may_reach_a_pack_beside_it():
    # A quest in PROJECT/sub using "../crypt.yaml" stays inside the project root.
    catalog, diagnostics = load_catalog([use("../crypt.yaml", base_dir=PROJECT / "sub")], root=PROJECT)
    assert diagnostics == [] and "wraith" in catalog.monsters


def test_good_packs_load_beside_bad_ones():
    catalog, diagnostics = load_catalog(
        [use("nowhere.yaml", 3), use("crypt.yaml", 4), use("schema_invalid.yaml", 5)], root=PROJECT
    )
    assert [d.span.line for d in diagnostics] == [3, 5]
    assert "crypt_hall" in catalog.pieces


# --- hostile packs: a message, never an internal error --------------------------------------


@pytest.mark.parametrize("number", ["9" * 5000, "0x" + "f" * 4000, "-" + "1" * 300, "0" + "7" * 50])
def test_a_number_of_thousands_of_digits_is_q106(tmp_path, number):
    """5,000 decimal digits stopped PyYAML's int() (ValueError: internal error); a 4,000-digit
    hexadecimal footprint got past it to a number no map holds."""
    (tmp_path / "questc.toml").write_text("")
    (tmp_path / "big.yaml").write_text(f"monsters:\n  giant:\n    footprint: [{number}, 1]\n")
    problem = only(load_catalog([use("big.yaml", base_dir=tmp_path)], root=tmp_path)[1])
    assert "digits (a catalog's numbers have at most 12) at line 3" in problem.message


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
@pytest.mark.parametrize("link", ["pack.yaml", "sub/pack.yaml"])
def test_a_symbolic_link_loop_is_q106(tmp_path, link):
    """A pack that is a link to itself, or lies under a folder that is (a `use` path through
    a looping folder): `internal error: RuntimeError` before."""
    (tmp_path / "questc.toml").write_text("")
    os.symlink("pack.yaml", tmp_path / "pack.yaml")
    os.symlink("sub", tmp_path / "sub")
    problem = only(load_catalog([use(link, base_dir=tmp_path)], root=tmp_path)[1])
    assert "is a symbolic link that loops" in problem.message


def test_a_quest_in_a_looping_folder_lints(tmp_path):
    from click.testing import CliRunner

    from questc.cli import cli

    (tmp_path / "questc.toml").write_text("")
    os.symlink("loop", tmp_path / "loop")
    quest = Path(__file__).resolve().parent.parent / "quests" / "bells_of_lowmere.quest"
    (tmp_path / "q.quest").write_text(
        quest.read_text(encoding="utf-8").replace('use "packs/lowmere.yaml"', 'use "loop/pack.yaml"')
    )
    done = CliRunner().invoke(cli, ["lint", str(tmp_path / "q.quest")])
    assert done.exit_code == 1 and "internal error" not in done.output and "Q106" in done.output
