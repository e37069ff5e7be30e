"""What questc writes, and what it never writes over: no command's output replaces one of its
inputs; a folder that cannot be written is a message, never an internal error; a quest's set
of outputs is all new or all old even when the process is killed (SIGKILL) while it writes."""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from questc.cli import cli
from questc.emit import atomic

ROOT = Path(__file__).resolve().parent.parent
CELLAR = ROOT / "quests" / "chandlers_cellar.quest"
BELLS = ROOT / "quests" / "bells_of_lowmere.quest"


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture()
def work(tmp_path, monkeypatch):
    """A scratch folder as the current folder, holding a quest and a quest with its content pack."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "questc.toml").write_text("", encoding="utf-8")
    shutil.copy(CELLAR, tmp_path / "cellar.quest")
    shutil.copy(BELLS, tmp_path / "bells.quest")
    shutil.copytree(ROOT / "quests" / "packs", tmp_path / "packs")
    return tmp_path


def untouched(work: Path) -> bool:
    return ((work / "cellar.quest").read_bytes() == CELLAR.read_bytes()
            and (work / "bells.quest").read_bytes() == BELLS.read_bytes()
            and (work / "packs" / "lowmere.yaml").read_bytes() == (ROOT / "quests" / "packs" / "lowmere.yaml").read_bytes())


# ---- never over an input -------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("lint", "-o", "cellar.quest", "cellar.quest"),
    ("lint", "--format", "json", "-o", "cellar.quest", "."),
    ("lint", "-o", "packs/lowmere.yaml", "bells.quest"),
    ("lint", "-o", "questc.toml", "cellar.quest"),
    ("lint", "--show-settings", "-o", "cellar.quest", "cellar.quest"),
    ("preview", "--export", "cellar.quest", "cellar.quest"),
    ("preview", "--export", "packs/lowmere.yaml", "bells.quest"),
    ("build", "-o", "packs", "--only", "json", "cellar.quest"),
])
@pytest.mark.slow
def test_no_output_replaces_an_input(work, args):
    if args[0] == "build":   # a quest whose id names its own pack
        text = (work / "cellar.quest").read_text(encoding="utf-8").replace("id chandlers_cellar", "id lowmere")
        (work / "packs" / "lowmere.json").write_text("{}", encoding="utf-8")
        (work / "cellar.quest").write_text(text, encoding="utf-8")
        shutil.copy(work / "cellar.quest", work / "packs" / "lowmere.json")
        args = ("build", "-o", "packs", "--only", "json", "packs/lowmere.json")
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    done = run(*args)
    assert done.exit_code == 2, done.output
    assert "refusing to overwrite" in done.output
    assert {p: p.read_bytes() for p in work.rglob("*") if p.is_file()} == before


def test_a_report_beside_the_inputs_is_written(work):
    done = run("lint", "-o", "report.txt", "cellar.quest")
    assert done.exit_code == 0 and "0 errors" in (work / "report.txt").read_text(encoding="utf-8")
    assert untouched(work)


# ---- folders that cannot be written ------------------------------------------------------------------


def _refuse(kind: int):
    def fail(*args, **kwargs):
        raise OSError(kind, os.strerror(kind))
    return fail


@pytest.mark.parametrize("kind", [errno.EROFS, errno.ENOSPC, errno.EACCES])
@pytest.mark.parametrize("args", [
    ("build", "--only", "json", "-o", "out", "cellar.quest"),
    ("guide", "-o", "out/guide.pdf", "cellar.quest"),
    ("lint", "-o", "out/report.txt", "cellar.quest"),
    ("preview", "--export", "out/page.html", "cellar.quest"),
])
@pytest.mark.slow
def test_an_output_that_cannot_be_written_is_a_message(work, monkeypatch, kind, args):
    """A read-only mount (EROFS), a full disk (ENOSPC), a folder not ours (EACCES): exit 2 with a
    message naming the file, nothing written, never `internal error`."""
    (work / "out").mkdir()
    monkeypatch.setattr(atomic.os, "write", _refuse(kind))
    done = run(*args)
    assert done.exit_code == 2, done.output
    assert "internal error" not in done.output and "Traceback" not in done.output
    assert os.strerror(kind) in done.output and "out/" in done.output.replace(os.sep, "/")
    assert list((work / "out").iterdir()) == [] and untouched(work)


def test_a_new_folder_on_a_read_only_mount_is_a_message(work, monkeypatch):
    monkeypatch.setattr(Path, "mkdir", _refuse(errno.EROFS))
    done = run("build", "--only", "json", "-o", "new/folder", "cellar.quest")
    assert done.exit_code == 2 and "internal error" not in done.output
    assert "cannot make the output folder new/folder: Read-only file system" in done.output


# ---- all or none, even under SIGKILL -------------------------------------------------------------------


def _build(work: Path, *, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "QUESTC_TEST_KILL_AT"}
    if kill_at:
        env["QUESTC_TEST_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "questc", "build", "--only", "json,png", "-o", "out", "cellar.quest"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=300)


def _set(work: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((work / "out").iterdir())}


def _version(data: bytes) -> str:
    return json.loads(data)["quest"]["version"]


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("point, whole", [("staged", "old"), ("journal", "new"), ("rename", "new")])
def test_a_build_killed_while_it_writes_leaves_one_whole_set(work, point, whole):
    """A real `questc build` killed by SIGKILL at each step of writing a quest's files (after the
    first file's bytes are on disk; once the renames are journalled; between two renames):
    whatever it left, the next write into the folder finishes or undoes, so the quest's JSON
    and PNG are both old or both new, and no temporary file or journal is left."""
    assert _build(work).returncode == 0
    old = _set(work)
    assert sorted(old) == ["chandlers_cellar.json", "chandlers_cellar.png"] and _version(old["chandlers_cellar.json"]) == "1.0"
    text = (work / "cellar.quest").read_text(encoding="utf-8")
    (work / "cellar.quest").write_text(text.replace('version "1.0"', 'version "2.0"')
                                       .replace("Foot of the Stairs", "Bottom of the Stairs"), encoding="utf-8")
    killed = _build(work, kill_at=point)
    assert killed.returncode == -9, killed.stderr
    # What a reader sees until the next questc write: targets whole (each old or new), never half a file.
    for name, data in _set(work).items():
        if name.endswith(".json"):
            json.loads(data)
    # The next write into the folder (here a lint report) puts the set right first.
    assert run("lint", "-q", "-o", "out/report.txt", "cellar.quest").exit_code == 0
    after = _set(work)
    assert sorted(after) == ["chandlers_cellar.json", "chandlers_cellar.png", "report.txt"], sorted(after)
    json_new = _version(after["chandlers_cellar.json"]) == "2.0"
    png_new = after["chandlers_cellar.png"] != old["chandlers_cellar.png"]
    assert json_new == png_new == (whole == "new")


def test_recover_finishes_a_journal_and_removes_strays(tmp_path):
    (tmp_path / "a.json").write_text("old a")
    (tmp_path / "b.png").write_text("old b")
    (tmp_path / ".a.json.questc-x1.tmp").write_text("new a")
    (tmp_path / ".b.png.questc-x2.tmp").write_text("new b")
    (tmp_path / ".questc-journal-1").write_text(json.dumps(
        {"renames": [[".a.json.questc-x1.tmp", "a.json"], [".b.png.questc-x2.tmp", "b.png"]]}))
    (tmp_path / ".c.pdf.questc-x3.tmp").write_text("a stray")
    (tmp_path / ".hidden").write_text("not ours")
    atomic.recover(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".hidden", "a.json", "b.png"]
    assert (tmp_path / "a.json").read_text() == "new a" and (tmp_path / "b.png").read_text() == "new b"
