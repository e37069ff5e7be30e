"""questc.api as a library user calls it: check, build and guide without the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from questc import api

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "json"
DROWNED = SNAPSHOTS / "clean_drowned_reliquary.quest"
SUNKEN = SNAPSHOTS / "sunken_crypt.quest"

PACK_QUEST = """quest "Data" {
  id data
  conquest 3
  use "data.json"
}
piece R1 room_4x4 at 0,0
area A start { pieces R1; monster beastmen at 1,1 }
victory heroes when killed all
"""


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "questc.toml").write_text("", encoding="utf-8")  # no configuration above counts
    for quest in (DROWNED, SUNKEN):
        shutil.copy(quest, tmp_path / quest.name)
    return tmp_path


def test_build_writes_each_clean_quests_files_and_reports_them(folder):
    seen = []
    report = api.build([folder], folder / "out", kinds=["json"], on_checked=seen.extend)
    assert [Path(r.path).name for r in seen] == [DROWNED.name, SUNKEN.name]
    assert sorted(p.name for p in report.written) == ["drowned_reliquary.json", "sunken_crypt.json"]
    assert not report.failed and not report.problems
    data = json.loads((folder / "out" / "sunken_crypt.json").read_text(encoding="utf-8"))
    assert data["quest"]["id"] == "sunken_crypt"


def test_build_takes_checked_results_too(folder):
    result = api.check_file(folder / SUNKEN.name)
    report = api.build([result], folder / "out", kinds=["json"])
    assert [p.name for p in report.written] == ["sunken_crypt.json"]


def test_a_quest_with_errors_is_reported_and_not_built(folder):
    (folder / "broken.quest").write_text('quest "B" { id broken }\npiece R1 nowhere_piece at 0,0\n', encoding="utf-8")
    report = api.build([folder / "broken.quest", folder / SUNKEN.name], folder / "out", kinds=["json"])
    assert report.failed
    assert [p.name for p in report.written] == ["sunken_crypt.json"]


def test_an_unknown_kind_is_refused_before_anything_is_written(folder):
    with pytest.raises(api.BuildError, match="unknown output kind svgz"):
        api.build([folder], folder / "out", kinds=["svgz"])
    assert not (folder / "out").exists()


def test_a_build_never_overwrites_a_content_pack(folder):
    (folder / "data.json").write_text('{"monsters": {}}', encoding="utf-8")
    (folder / "data.quest").write_text(PACK_QUEST, encoding="utf-8")
    before = (folder / "data.json").read_bytes()
    result = api.check_file(folder / "data.quest")
    assert result.model is not None and result.model.catalog.pack_files == ((folder / "data.json").resolve(),)
    with pytest.raises(api.OutputRefused, match="refusing to overwrite the content pack"):
        api.build([folder / "data.quest"], folder, kinds=["json"])
    assert (folder / "data.json").read_bytes() == before


def test_a_guide_never_overwrites_an_input(folder):
    (folder / "questc.toml").write_text("strict = false\n", encoding="utf-8")
    from questc.config import load_options

    options = load_options(config_file=folder / "questc.toml")
    with pytest.raises(api.OutputRefused, match="refusing to overwrite the configuration"):
        api.guide([folder / SUNKEN.name], folder / "questc.toml", options=options)
    with pytest.raises(api.OutputRefused, match="refusing to overwrite the source"):
        api.guide([folder / SUNKEN.name], folder / SUNKEN.name)
    assert (folder / "questc.toml").read_text(encoding="utf-8") == "strict = false\n"


@pytest.mark.slow
def test_guide_writes_one_pdf_of_the_clean_quests_in_order(folder):
    pytest.importorskip("typst")
    laid_out = []
    report = api.guide(
        [folder / SUNKEN.name, folder / DROWNED.name],
        folder / "book" / "guide.pdf",
        title="Our campaign",
        progress=laid_out.append,
    )
    assert report.written == folder / "book" / "guide.pdf"
    assert [Path(r.path).name for r in report.included] == [SUNKEN.name, DROWNED.name]
    assert laid_out == [1, 1] and not report.left_out
    assert report.written.read_bytes().startswith(b"%PDF")
