"""`questc build` and `questc schema`, and the atomic writes beneath them: what is written,
what never is, and the exit status of each case."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from questc.api import check_file
from questc.cli import cli
from questc.emit import atomic
from questc.emit.atomic import write_atomic
from questc.emit.engine_json import engine_json
from questc.loader import load_quest_json
from questc.options import Options

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "snapshots" / "json"
DROWNED = SNAPSHOTS / "clean_drowned_reliquary.quest"
SUNKEN = SNAPSHOTS / "sunken_crypt.quest"

BROKEN = 'quest "Broken" {\n  id broken\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\narea A start { pieces R1; monster beastmen at 1,1 }\n'
WARNED = textwrap.dedent("""
    quest "Alcove" { conquest 3 }
    piece R1 room_4x4 at 0,0
    piece C1 corridor_2x2 at 4,1
    piece E1 dead_end at 6,1
    area A "Hall" start { pieces R1; glyph at 0,0 active; named boss at 1,1 }
    area B "Alcove" { pieces C1, E1 }
    named boss "Boss" skeleton { conquest 1 }
    victory heroes when killed boss
""").lstrip()


@pytest.fixture()
def work(tmp_path, monkeypatch):
    """A scratch folder as the current folder (no configuration above it), holding two good quests."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quests").mkdir()
    shutil.copy(DROWNED, tmp_path / "quests" / DROWNED.name)
    shutil.copy(SUNKEN, tmp_path / "quests" / SUNKEN.name)
    # A questc.toml stops the configuration search here, so no file above the test's folder counts.
    (tmp_path / "questc.toml").write_text("", encoding="utf-8")
    return tmp_path


@pytest.fixture()
def no_renderers(monkeypatch):
    """Make questc.emit.png and questc.emit.pdf unimportable, whatever is installed."""
    monkeypatch.setitem(sys.modules, "questc.emit.png", None)
    monkeypatch.setitem(sys.modules, "questc.emit.pdf", None)


def fake_renderer(monkeypatch, kind: str, render) -> None:
    module = types.ModuleType(f"questc.emit.{kind}")
    setattr(module, f"render_{kind}", render)
    monkeypatch.setitem(sys.modules, f"questc.emit.{kind}", module)


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# ---- building json ----------------------------------------------------------------------------


def test_build_writes_one_json_per_quest(work, no_renderers):
    done = run("build", "--only", "json", "-o", "out", "quests")
    assert done.exit_code == 0, done.output
    assert files(work / "out") == ["drowned_reliquary.json", "sunken_crypt.json"]
    assert "0 errors, 0 warnings in 2 files" in done.output
    assert "wrote out/drowned_reliquary.json" in done.output
    data = (work / "out" / "drowned_reliquary.json").read_bytes()
    # The file is the engine JSON, infos included (the build records them even without --verbose).
    result = check_file(work / "quests" / DROWNED.name, Options(verbose=True))
    assert result.compiled is not None and data == engine_json(result.compiled, result.diagnostics)
    assert load_quest_json(data).id == "drowned_reliquary"
    assert oct((work / "out" / "drowned_reliquary.json").stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_default_folder_is_build_and_default_kinds_skip_missing_renderers(work, no_renderers):
    done = CliRunner().invoke(cli, ["build", "quests/" + DROWNED.name])
    assert done.exit_code == 0, done.output
    assert files(work / "build") == ["drowned_reliquary.json"]
    assert "png not built" in done.output and "pdf not built" in done.output


def test_asking_for_a_missing_renderer_is_a_usage_error(work, no_renderers):
    for only in ("png", "pdf", "json,png"):
        done = run("build", "--only", only, "-o", "out", "quests")
        assert done.exit_code == 2, done.output
        assert "cannot build" in done.output and "questc.emit." in done.output
        assert files(work / "out") == []  # no placeholder, and no json either


def test_unknown_kind_is_a_usage_error(work):
    done = run("build", "--only", "json,svg", "-o", "out", "quests")
    assert done.exit_code == 2 and "svg" in done.output
    assert files(work / "out") == []


def test_renderers_that_exist_are_called_and_written(work, monkeypatch):
    seen = []

    def render_png(quest, paper="a4"):
        seen.append(quest.model.id)
        return b"\x89PNG " + quest.model.id.encode()

    fake_renderer(monkeypatch, "png", render_png)
    fake_renderer(monkeypatch, "pdf", lambda quest, paper="a4": b"%PDF " + quest.model.id.encode())
    done = run("build", "-o", "out", "quests")
    assert done.exit_code == 0, done.output
    assert files(work / "out") == [
        "drowned_reliquary.json",
        "drowned_reliquary.pdf",
        "drowned_reliquary.png",
        "sunken_crypt.json",
        "sunken_crypt.pdf",
        "sunken_crypt.png",
    ]
    assert (work / "out" / "sunken_crypt.png").read_bytes() == b"\x89PNG sunken_crypt"
    assert seen == ["drowned_reliquary", "sunken_crypt"]
    done = run("build", "--only", "png", "-o", "only_png", "quests")
    assert done.exit_code == 0 and files(work / "only_png") == ["drowned_reliquary.png", "sunken_crypt.png"]


def test_a_build_holds_an_emitters_session_open_while_it_renders(work, monkeypatch):
    """An emitter module's session() (emit.png keeps a picture's memory for the next) is entered
    once before the first quest is rendered and left after the last."""
    events = []

    def render_png(quest, paper="a4"):
        events.append(quest.model.id)
        return b"\x89PNG"

    @contextlib.contextmanager
    def session():
        events.append("open")
        yield
        events.append("closed")

    fake_renderer(monkeypatch, "png", render_png)
    sys.modules["questc.emit.png"].session = session
    done = run("build", "--only", "json,png", "-o", "out", "quests")
    assert done.exit_code == 0, done.output
    assert events == ["open", "drowned_reliquary", "sunken_crypt", "closed"]


def test_a_renderer_failure_exits_2_and_writes_none_of_that_quests_files(work, monkeypatch):
    # All of a quest's outputs or none: a JSON beside a missing PNG would look like a finished build.
    def render_png(quest, paper="a4"):
        if quest.model.id == "drowned_reliquary":
            raise RuntimeError("out of ink")
        return b"\x89PNG " + quest.model.id.encode()

    fake_renderer(monkeypatch, "png", render_png)
    monkeypatch.delenv("QUESTC_DEBUG", raising=False)
    done = run("build", "--only", "json,png", "-o", "out", "quests")
    assert done.exit_code == 2 and "out of ink" in done.output
    assert files(work / "out") == ["sunken_crypt.json", "sunken_crypt.png"]


# ---- quests with errors -------------------------------------------------------------------------


def test_a_quest_with_errors_is_not_built_and_the_others_are(work, no_renderers):
    (work / "quests" / "broken.quest").write_text(BROKEN, encoding="utf-8")
    done = run("build", "--only", "json", "-o", "out", "quests")
    assert done.exit_code == 1, done.output
    assert "error[Q101]" in done.output
    assert files(work / "out") == ["drowned_reliquary.json", "sunken_crypt.json"]


def test_only_broken_quests_write_nothing_not_even_the_folder(work, no_renderers):
    (work / "broken.quest").write_text(BROKEN, encoding="utf-8")
    done = run("build", "--only", "json", "-o", "out", "broken.quest")
    assert done.exit_code == 1
    assert not (work / "out").exists()


def test_warnings_build_but_strict_does_not(work, no_renderers):
    (work / "alcove.quest").write_text(WARNED, encoding="utf-8")
    done = run("build", "--only", "json", "-o", "out", "alcove.quest")
    assert done.exit_code == 0 and "warning[Q305]" in done.output
    recorded = json.loads((work / "out" / "alcove.json").read_text(encoding="utf-8"))["diagnostics"]
    assert "Q305" in {d["code"] for d in recorded}
    assert "info[" not in done.output  # infos are recorded, not printed...
    assert "info[" in run("build", "--only", "json", "-v", "-o", "out", "alcove.quest").output  # ...unless asked
    done = run("build", "--only", "json", "--strict", "-o", "strict_out", "alcove.quest")
    assert done.exit_code == 1 and not (work / "strict_out").exists()


# ---- clashes ---------------------------------------------------------------------------------------


def test_two_quests_with_one_id_stop_the_build(work, no_renderers):
    other = work / "quests" / "copy.quest"
    other.write_text(DROWNED.read_text(encoding="utf-8").replace("The Drowned Reliquary", "Another"), encoding="utf-8")
    done = run("build", "--only", "json", "-o", "out", "quests")
    assert done.exit_code == 1
    assert "same id" in done.output and "drowned_reliquary" in done.output and "copy.quest" in done.output
    assert files(work / "out") == []


def test_an_output_never_overwrites_a_source(work, no_renderers):
    # A quest file named like its own output, built into its own folder.
    source = work / "drowned_reliquary.json"
    shutil.copy(DROWNED, source)
    before = source.read_bytes()
    done = run("build", "--only", "json", "-o", ".", str(source))
    assert done.exit_code == 1 and "refusing to overwrite the source" in done.output
    assert source.read_bytes() == before


def test_an_output_folder_that_is_a_file_is_refused(work, no_renderers):
    (work / "out").write_text("not a folder", encoding="utf-8")
    done = run("build", "--only", "json", "-o", "out", "quests")
    assert done.exit_code == 1 and "not a folder" in done.output


def test_a_missing_input_is_a_usage_error(work):
    done = run("build", "--only", "json", "-o", "out", "nowhere.quest")
    assert done.exit_code == 2 and "no such file" in done.output


# ---- determinism, through the real command line --------------------------------------------


@pytest.mark.slow
def test_two_builds_give_the_same_bytes_from_any_folder(work):
    """Two builds, run as real processes from different current folders, write identical files."""
    (work / "elsewhere" / "deeper").mkdir(parents=True)
    outputs = []
    for cwd, quests, out in (
        (work, "quests", work / "one"),
        (work / "elsewhere" / "deeper", "../../quests", work / "two"),
        (work, str(work / "quests"), work / "three"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "questc", "build", "--only", "json", "-o", str(out), quests],
            cwd=cwd,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr + done.stdout
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outputs[0] == outputs[1] == outputs[2]
    assert set(outputs[0]) == {"drowned_reliquary.json", "sunken_crypt.json"}


def test_rebuilding_replaces_the_file_whole(work, no_renderers):
    assert run("build", "--only", "json", "-o", "out", "quests").exit_code == 0
    first = (work / "out" / "sunken_crypt.json").read_bytes()
    (work / "out" / "sunken_crypt.json").write_bytes(b"stale")
    assert run("build", "--only", "json", "-o", "out", "quests").exit_code == 0
    assert (work / "out" / "sunken_crypt.json").read_bytes() == first
    assert files(work / "out") == ["drowned_reliquary.json", "sunken_crypt.json"]  # no temporary files left


# ---- questc schema ---------------------------------------------------------------------------------


def test_schema_command_prints_the_schema_file():
    done = run("schema")
    assert done.exit_code == 0
    assert done.output == (ROOT / "schemas" / "quest.schema.json").read_text(encoding="utf-8")
    assert json.loads(done.output)["$id"] == "https://questc.dev/schemas/quest/3.json"


# ---- atomic writes -----------------------------------------------------------------------------------


def test_write_atomic_writes_and_replaces(tmp_path):
    target = tmp_path / "a.json"
    assert write_atomic(target, b"one") == target and target.read_bytes() == b"one"
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two" and files(tmp_path) == ["a.json"]


@pytest.mark.parametrize("existing", [None, b"the old file"])
def test_a_failure_mid_write_leaves_no_partial_file(tmp_path, monkeypatch, existing):
    target = tmp_path / "a.json"
    if existing is not None:
        target.write_bytes(existing)

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"x" * 100_000)
    monkeypatch.undo()
    if existing is None:
        assert files(tmp_path) == []
    else:
        assert files(tmp_path) == ["a.json"] and target.read_bytes() == existing


def test_an_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    real_replace = os.replace

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"data")
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    assert files(tmp_path) == []


def test_build_writes_nothing_when_a_write_fails(work, no_renderers, monkeypatch):
    def failing_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    done = run("build", "--only", "json", "-o", "out", "quests")
    assert done.exit_code == 1  # the disk refused the output: a message, not a usage error
    assert "cannot write out/drowned_reliquary.json: Input/output error" in done.output.replace(os.sep, "/")
    assert files(work / "out") == []
