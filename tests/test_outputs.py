"""What questc writes, and what it never writes over: no command's output replaces one of its
inputs; a folder that cannot be written is a message, never an internal error; a quest's set
of outputs is all new or all old even when the process is killed (SIGKILL) while it writes."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
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
    return (
        (work / "cellar.quest").read_bytes() == CELLAR.read_bytes()
        and (work / "bells.quest").read_bytes() == BELLS.read_bytes()
        and (work / "packs" / "lowmere.yaml").read_bytes() == (ROOT / "quests" / "packs" / "lowmere.yaml").read_bytes()
    )


# ---- never over an input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("lint", "-o", "cellar.quest", "cellar.quest"),
        ("lint", "--format", "json", "-o", "cellar.quest", "."),
        ("lint", "-o", "packs/lowmere.yaml", "bells.quest"),
        ("lint", "-o", "questc.toml", "cellar.quest"),
        ("lint", "--show-settings", "-o", "cellar.quest", "cellar.quest"),
        ("preview", "--export", "cellar.quest", "cellar.quest"),
        ("preview", "--export", "packs/lowmere.yaml", "bells.quest"),
        ("build", "-o", "packs", "--only", "json", "cellar.quest"),
    ],
)
@pytest.mark.slow
def test_no_output_replaces_an_input(work, args):
    if args[0] == "build":  # a quest whose id names its own pack
        text = (work / "cellar.quest").read_text(encoding="utf-8").replace("id chandlers_cellar", "id lowmere")
        (work / "packs" / "lowmere.json").write_text("{}", encoding="utf-8")
        (work / "cellar.quest").write_text(text, encoding="utf-8")
        shutil.copy(work / "cellar.quest", work / "packs" / "lowmere.json")
        args = ("build", "-o", "packs", "--only", "json", "packs/lowmere.json")
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    done = run(*args)
    assert done.exit_code == 1, done.output  # the output named is at fault, not the call: exit 1, not 2
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
@pytest.mark.parametrize(
    "args",
    [
        ("build", "--only", "json", "-o", "out", "cellar.quest"),
        ("guide", "-o", "out/guide.pdf", "cellar.quest"),
        ("lint", "-o", "out/report.txt", "cellar.quest"),
        ("preview", "--export", "out/page.html", "cellar.quest"),
    ],
)
@pytest.mark.slow
def test_an_output_that_cannot_be_written_is_a_message(work, monkeypatch, kind, args):
    """A read-only mount (EROFS), a full disk (ENOSPC), a folder not ours (EACCES): exit 1 with a
    message naming the file, nothing written, never `internal error` (exit 2)."""
    (work / "out").mkdir()
    monkeypatch.setattr(atomic.os, "write", _refuse(kind))
    done = run(*args)
    assert done.exit_code == 1, done.output
    assert "internal error" not in done.output and "Traceback" not in done.output
    assert os.strerror(kind) in done.output and "out/" in done.output.replace(os.sep, "/")
    assert list((work / "out").iterdir()) == [] and untouched(work)


def test_a_new_folder_on_a_read_only_mount_is_a_message(work, monkeypatch):
    monkeypatch.setattr(Path, "mkdir", _refuse(errno.EROFS))
    done = run("build", "--only", "json", "-o", "new/folder", "cellar.quest")
    assert done.exit_code == 1 and "internal error" not in done.output
    assert "cannot make the output folder new/folder: Read-only file system" in done.output


OPEN_END = """\
quest "Q" {
  conquest 3
}
piece R1 room_4x4 at 0,0
piece C1 corridor_2x2 at 4,1
door d between R1 C1
area A "Hall" start { pieces R1; glyph at 0,0 active }
area B "Passage" { pieces C1 }
victory heroes when revealed A
"""


@pytest.mark.parametrize(
    "args",
    [
        ("fmt", "loose.quest"),
        ("lint", "--fix", "--unsafe-fixes", "loose.quest"),
        ("lint", "--fix", "--unsafe-fixes", "--exit-zero", "loose.quest"),
    ],
)
def test_a_quest_that_cannot_be_rewritten_is_a_message(work, monkeypatch, args):
    """`fmt` and `lint --fix` on a read-only file: the file stays as it was, a message names it,
    exit 1 (was `internal error: OSError`, exit 2)."""
    loose = work / "loose.quest"
    loose.write_text(OPEN_END.replace("piece R1", "piece  R1"), encoding="utf-8")  # fmt and --fix both change it
    before = loose.read_bytes()
    monkeypatch.setattr(atomic.os, "write", _refuse(errno.EROFS))
    done = run(*args)
    assert done.exit_code == 1, done.output
    assert "internal error" not in done.output
    assert "cannot write loose.quest: Read-only file system; left untouched" in done.output
    assert loose.read_bytes() == before and sorted(p.name for p in work.iterdir() if p.name.startswith(".")) == []


def test_new_into_a_folder_that_cannot_be_written_is_a_message(work, monkeypatch):
    monkeypatch.setattr(Path, "mkdir", _refuse(errno.EROFS))
    done = run("new", "fresh", "-o", "new/folder")
    assert done.exit_code == 1 and "cannot write new/folder/fresh.quest: Read-only file system" in done.output


# ---- all or none, even under SIGKILL -------------------------------------------------------------------


def _build(work: Path, *, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "QUESTC_TEST_KILL_AT"}
    if kill_at:
        env["QUESTC_TEST_KILL_AT"] = kill_at
    return subprocess.run(
        [sys.executable, "-m", "questc", "build", "--only", "json,png", "-o", "out", "cellar.quest"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


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
    assert (
        sorted(old) == ["chandlers_cellar.json", "chandlers_cellar.png"]
        and _version(old["chandlers_cellar.json"]) == "1.0"
    )
    text = (work / "cellar.quest").read_text(encoding="utf-8")
    (work / "cellar.quest").write_text(
        text.replace('version "1.0"', 'version "2.0"').replace("Foot of the Stairs", "Bottom of the Stairs"),
        encoding="utf-8",
    )
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
    (tmp_path / ".questc-journal-1").write_text(
        json.dumps({"renames": [[".a.json.questc-x1.tmp", "a.json"], [".b.png.questc-x2.tmp", "b.png"]]})
    )
    (tmp_path / ".c.pdf.questc-x3.tmp").write_text("a stray")
    (tmp_path / ".hidden").write_text("not ours")
    atomic.recover(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".hidden", "a.json", "b.png"]
    assert (tmp_path / "a.json").read_text() == "new a" and (tmp_path / "b.png").read_text() == "new b"


# ---- outputs that are devices or pipes ------------------------------------------------------------


def test_an_output_that_is_a_device_is_written_into_not_replaced(work):
    """`lint -o /dev/null` as root renamed a regular file over the device node (/dev/null
    became a file); the report is now written into it, as a shell redirection would."""
    null = work / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("making a device node needs root")
    for args in (("lint", "-o", "null", "cellar.quest"), ("preview", "--export", "null", "cellar.quest")):
        done = run(*args)
        assert done.exit_code == 0, done.output
        assert stat.S_ISCHR(null.stat().st_mode), args  # still the device
    assert untouched(work) and not [p for p in work.iterdir() if p.name.startswith(".")]


def test_an_output_that_is_a_named_pipe_is_written_into_or_refused_at_once(work):
    import threading

    pipe = work / "report.pipe"
    os.mkfifo(pipe)
    # nothing reads it: a message at once (never a wait for ever), exit 1
    done = run("lint", "-o", "report.pipe", "cellar.quest")
    assert done.exit_code == 1 and "cannot write report.pipe: it is a named pipe that nothing reads" in done.output
    # a reader: the report goes down the pipe, which stays a pipe
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    import time

    for _ in range(100):  # the reader's open has to be waiting before the writer opens
        time.sleep(0.02)
        done = run("lint", "-o", "report.pipe", "cellar.quest")
        if done.exit_code == 0:
            break
    reader.join(timeout=10)
    assert done.exit_code == 0 and got == [b"0 errors, 0 warnings in 1 file\n"]
    assert stat.S_ISFIFO(pipe.stat().st_mode) and untouched(work)


# ---- the outputs campaign's findings (bench/outputs.py) ----------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("lint", "-o", "loop", "cellar.quest"), "cannot write loop: it is a symbolic link that loops"),
        (("preview", "--export", "loop", "cellar.quest"), "cannot write loop: it is a symbolic link that loops"),
        (("guide", "-o", "loop", "cellar.quest"), "cannot write loop: it is a symbolic link that loops"),
        (("build", "--only", "json", "-o", "x" * 300, "cellar.quest"), "File name too long"),
        (("guide", "-o", "x" * 300 + ".pdf", "cellar.quest"), "File name too long"),
        (("lint", "-o", "packs", "cellar.quest"), "cannot write packs: it is a folder"),
        (("preview", "--export", "packs", "cellar.quest"), "cannot write packs: it is a folder"),
        (("new", "fresh", "-o", "cellar.quest"), "cannot write cellar.quest/fresh.quest: cellar.quest is a file"),
    ],
)
def test_outputs_no_command_could_write_are_messages_and_exit_1(work, args, message):
    """A link that loops, a name too long, a folder where a file goes, a file where a folder goes:
    were internal errors (RuntimeError, OSError) or usage errors (exit 2); the output named is at
    fault, so exit 1 with a message, nothing written."""
    os.symlink("loop", work / "loop")
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    done = run(*args)
    assert done.exit_code == 1, done.output
    assert message in done.output and "internal error" not in done.output
    assert {p: p.read_bytes() for p in work.rglob("*") if p.is_file()} == before
    assert os.path.islink(work / "loop")


def test_an_output_that_is_a_symbolic_link_is_written_through_it(work):
    """The link stays a link and the file it names gets the report (a rename replaced the link)."""
    (work / "reports").mkdir()
    os.symlink("reports/latest.txt", work / "report.txt")
    done = run("lint", "-o", "report.txt", "cellar.quest")
    assert done.exit_code == 0, done.output
    assert os.path.islink(work / "report.txt")
    assert (work / "reports" / "latest.txt").read_text(encoding="utf-8") == "0 errors, 0 warnings in 1 file\n"
    # a link to an input is still refused
    os.symlink("cellar.quest", work / "sneaky.txt")
    done = run("lint", "-o", "sneaky.txt", "cellar.quest")
    assert done.exit_code == 1 and "refusing to overwrite the source" in done.output and untouched(work)
