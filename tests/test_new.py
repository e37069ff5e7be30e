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
    assert result.exit_code == 2 and "already exists" in result.output
    assert (tmp_path / "mine.quest").read_text(encoding="utf-8") == "precious"
    assert CliRunner().invoke(cli, ["new", "a/b"]).exit_code == 2
    assert CliRunner().invoke(cli, ["new", "other.quest"]).exit_code == 0
    assert (tmp_path / "other.quest").exists()


def test_names():
    assert quest_id("My Quest-2") == "my_quest_2" and quest_id("3rooms") == "q_3rooms"
    assert quest_title("tomb_of-ice") == "Tomb Of Ice"
    assert 'quest "The \\"q\\""' in starter_quest('the_"q"')
