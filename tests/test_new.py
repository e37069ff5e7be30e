"""`questc new NAME`: a starter quest that lints clean, in the canonical layout, never overwriting."""

from __future__ import annotations

from click.testing import CliRunner

from questc.api import check_file
from questc.fmt import format_source
from questc.fmt.starter import quest_id, quest_title, starter_quest
from questc.options import Options


def test_starter_lints_clean_and_is_formatted(tmp_path):
    from questc.cli import cli

    result = CliRunner().invoke(cli, ["new", "drowned_reliquary", "-o", str(tmp_path / "quests")])
    assert result.exit_code == 0, result.output
    path = tmp_path / "quests" / "drowned_reliquary.quest"
    checked = check_file(path, Options(verbose=True))
    bad = [d for d in checked.diagnostics if d.severity.value in ("error", "warning")]
    assert not bad, [f"{d.code} {d.message}" for d in bad]
    assert checked.compiled
    text = path.read_text(encoding="utf-8")
    assert not format_source(text).changed
    assert "id drowned_reliquary" in text and 'quest "Drowned Reliquary"' in text
    assert text.count("\n#") >= 5  # it explains itself


def test_never_overwrites(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.quest").write_text("precious", encoding="utf-8")
    result = CliRunner().invoke(cli, ["new", "mine"])
    assert result.exit_code == 1 and "already exists" in result.output  # the output named, not the call
    assert (tmp_path / "mine.quest").read_text(encoding="utf-8") == "precious"
    assert CliRunner().invoke(cli, ["new", "a/b"]).exit_code == 2
    assert CliRunner().invoke(cli, ["new", "other.quest"]).exit_code == 0
    assert (tmp_path / "other.quest").exists()


def test_names():
    assert quest_id("My Quest-2") == "my_quest_2" and quest_id("3rooms") == "q_3rooms"
    assert quest_title("tomb_of-ice") == "Tomb Of Ice"
    assert 'quest "The \\"q\\""' in starter_quest('the_"q"')


def test_title_as_written_and_the_path_as_given(tmp_path, monkeypatch):
    """The starter keeps a title's apostrophe, and its comment names the file as the writer
    will type it (the tutorial's `questc new chandlers_cellar --title ... -o quests`)."""
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["new", "chandlers_cellar", "--title", "The Chandler's Cellar", "-o", "quests"])
    assert done.exit_code == 0 and done.output == "wrote quests/chandlers_cellar.quest\n"
    text = (tmp_path / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8")
    lines = text.split("\n")
    assert lines[0] == "# The Chandler's Cellar: a starter quest written by `questc new`."
    assert lines[1] == "# Check it with `questc lint quests/chandlers_cellar.quest`,"
    assert lines[2] == "# tidy it with `questc fmt quests/chandlers_cellar.quest`,"
    assert 'quest "The Chandler\'s Cellar" {' in lines and "  id chandlers_cellar" in lines
    assert not format_source(text).changed
    checked = check_file(tmp_path / "quests" / "chandlers_cellar.quest", Options(verbose=True))
    assert checked.compiled and not [d for d in checked.diagnostics if d.severity.value != "info"]
    # in the current folder, the comment names the bare file
    CliRunner().invoke(cli, ["new", "here"])
    assert "`questc lint here.quest`" in (tmp_path / "here.quest").read_text(encoding="utf-8")
    # a title with a quote or a line break still makes a valid header
    CliRunner().invoke(cli, ["new", "odd", "--title", 'The "Odd"\nOne'])
    odd = check_file(tmp_path / "odd.quest")
    assert odd.compiled and odd.model.title == 'The "Odd" One'


# ---- the second edition, and an encounter pair ------------------------------------------------


def _clean_under_strict(paths) -> None:
    """`questc lint --strict` passes on the files (no error, no warning) and `fmt` would change none."""
    from questc.cli import cli

    done = CliRunner().invoke(cli, ["lint", "--strict", *map(str, paths)])
    assert done.exit_code == 0, done.output
    assert done.output.endswith(f"0 errors, 0 warnings in {len(paths)} file{'s' if len(paths) > 1 else ''}\n")
    for path in paths:
        assert not format_source(path.read_text(encoding="utf-8")).changed, path


def test_a_second_edition_starter_lints_clean_under_strict(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["new", "bell_run", "--edition", "second", "-o", "quests"])
    assert done.exit_code == 0 and done.output == "wrote quests/bell_run.quest\n", done.output
    path = tmp_path / "quests" / "bell_run.quest"
    _clean_under_strict([path])
    checked = check_file(path, Options(verbose=True))
    model = checked.model
    assert checked.compiled and model.edition.name == "second" and model.encounter is None and model.part_of is None
    # the second edition's own things, for the writer to grow from
    kinds = {marker.kind for marker in model.markers}
    assert {"search", "objective", "villager", "lieutenant"} <= kinds
    assert {p.type.name for p in model.pieces.values()} >= {"entrance", "exit", "end_cap"}
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Bell Run: a second edition starter quest written by `questc new`.\n")
    assert "# Check it with `questc lint quests/bell_run.quest`," in text and text.count("\n#") >= 5


def test_an_encounter_pair_is_two_clean_files_tied_by_part_of(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(
        cli, ["new", "lantern_road", "--encounters", "2", "--title", "The Lantern Road", "-o", "quests"]
    )
    assert done.exit_code == 0, done.output
    assert done.output == "wrote quests/lantern_road_1.quest\nwrote quests/lantern_road_2.quest\n"
    paths = [tmp_path / "quests" / "lantern_road_1.quest", tmp_path / "quests" / "lantern_road_2.quest"]
    _clean_under_strict(paths)
    models = [check_file(path).model for path in paths]
    assert [(m.id, m.encounter, m.part_of, m.edition.name) for m in models] == [
        ("lantern_road_1", 1, "lantern_road", "second"),
        ("lantern_road_2", 2, "lantern_road", "second"),
    ]
    assert [m.title for m in models] == ["The Lantern Road: Encounter 1", "The Lantern Road: Encounter 2"]
    assert {p.type.name for p in models[0].pieces.values()} != {p.type.name for p in models[1].pieces.values()}
    second = paths[1].read_text(encoding="utf-8")
    assert "`questc lint quests/lantern_road_1.quest quests/lantern_road_2.quest`" in second


def test_an_encounter_pair_is_written_all_or_none(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "road_2.quest").write_text("mine", encoding="utf-8")
    done = CliRunner().invoke(cli, ["new", "road", "--encounters", "2"])
    assert done.exit_code == 1 and "road_2.quest already exists" in done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["road_2.quest"]  # road_1.quest not written either
    assert (tmp_path / "road_2.quest").read_text(encoding="utf-8") == "mine"
    # a race: the second file appears after the check; the first one made goes again
    real_open = open

    def racing(path, mode="r", *args, **kwargs):
        if str(path).endswith("race_2.quest") and "x" in mode:
            raise FileExistsError(17, "File exists", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", racing)
    done = CliRunner().invoke(cli, ["new", "race", "--encounters", "2"])
    assert done.exit_code == 1 and "race_2.quest already exists" in done.output
    assert not (tmp_path / "race_1.quest").exists()


def test_edition_and_encounters_usage(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    wrong = CliRunner().invoke(cli, ["new", "x", "--edition", "first", "--encounters", "2"])
    assert wrong.exit_code == 2 and not list(tmp_path.iterdir())
    assert "first edition quests have no encounters" in wrong.output and "is second edition" in wrong.output
    assert CliRunner().invoke(cli, ["new", "x", "--encounters", "3"]).exit_code == 2
    assert CliRunner().invoke(cli, ["new", "x", "--edition", "third"]).exit_code == 2
    # --encounters 2 alone is second edition; --edition first is the default, as before
    assert CliRunner().invoke(cli, ["new", "pair", "--encounters", "2"]).exit_code == 0
    assert check_file(tmp_path / "pair_1.quest").model.edition.name == "second"
    assert CliRunner().invoke(cli, ["new", "plain", "--edition", "first"]).exit_code == 0
    assert (tmp_path / "plain.quest").read_text(encoding="utf-8") == starter_quest("plain", path="plain.quest")
