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
    assert text.count("\n#") >= 5   # it explains itself


def test_never_overwrites(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.quest").write_text("precious", encoding="utf-8")
    result = CliRunner().invoke(cli, ["new", "mine"])
    assert result.exit_code == 1 and "already exists" in result.output   # the output named, not the call
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
