"""Bad and hostile input: huge files, many statements, deep nesting, huge maps, packs
outside the project or carrying YAML tags, builds that would overwrite a source, builds
interrupted midway; and the fast board paths against plain ones.

Every case must end in a clear diagnostic (exit 1), never a traceback or exit 2. No
test here measures time: each input is one the limits refuse early, so the tests stay
fast by construction.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questc.api import check_file, check_source
from questc.board import build_board
from questc.board.sight_reference import sees_reference
from questc.cli import cli
from questc.limits import MAX_MAP_CELLS
from questc.syntax.parser import MAX_NESTING, MAX_SOURCE_CHARS

ROOT = Path(__file__).resolve().parents[1]
QUEST = (ROOT / "quests" / "three_seals.quest").read_text(encoding="utf-8")
SMALL = (
    'quest "Small" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
    'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n}\nvictory heroes when revealed A\n'
)


def codes(result):
    return [d.code for d in result.diagnostics]


def lint(*args):
    result = CliRunner().invoke(cli, ["lint", *map(str, args)], catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "internal error" not in result.output
    return result


# ---- huge input ---------------------------------------------------------------------------


def test_a_ten_megabyte_file_is_refused_at_once(tmp_path):
    path = tmp_path / "big.quest"
    path.write_text(QUEST + ("# " + "x" * 1000 + "\n") * 10_000, encoding="utf-8")
    assert path.stat().st_size > 10_000_000
    result = check_file(path)
    assert codes(result) == ["Q006"]
    assert "at most 1,000,000 characters" in result.diagnostics[0].help
    out = lint(path)
    assert out.exit_code == 1 and "too large" in out.output
    assert len(out.output) < 5_000  # the report does not echo the file


def test_one_huge_string_is_refused(tmp_path):
    source = QUEST.replace('author "questc examples"', 'author "' + "y" * (MAX_SOURCE_CHARS + 1) + '"')
    assert codes(check_source(source, "s.quest")) == ["Q006"]


def test_a_hundred_thousand_statements(tmp_path):
    source = QUEST + "".join(f"door d{i} between R1 C1\n" for i in range(100_000))
    assert codes(check_source(source, "many.quest")) == ["Q006"]
    # Under the size limit, many statements still end in diagnostics.
    source = QUEST + ";\n" * 100_000
    result = check_source(source, "semis.quest")
    assert result.tree is not None


@pytest.mark.slow
def test_many_short_statements_under_the_limit():
    source = QUEST + "".join(f"door e{i} between R1 C1\n" for i in range(3_000))
    result = check_source(source, "doors.quest")
    assert result.errors  # too many doors for the sets, doors stacked on one joint...


@pytest.mark.parametrize(
    "condition",
    [
        "not " * 10_000 + "revealed A1",
        "(" * 10_000 + "revealed A1" + ")" * 10_000,
        " and ".join(["conquest > 1"] * 5_000),
        " or ".join(["(not revealed A1)"] * 2_000),
    ],
)
@pytest.mark.slow
def test_deep_or_long_conditions_end_in_diagnostics(condition):
    result = check_source(QUEST + "victory heroes when " + condition + "\n", "deep.quest")
    assert isinstance(result.diagnostics, list)


def test_nesting_past_the_limit_is_a_clear_q006():
    result = check_source(QUEST + "victory heroes when " + "not " * (MAX_NESTING * 3) + "revealed A1\n", "deep.quest")
    assert codes(result) == ["Q006"]
    assert "nested more than" in result.diagnostics[0].message


def test_deep_braces_and_garbage(tmp_path):
    assert "Q001" in codes(check_source("{" * 100_000, "braces.quest"))
    path = tmp_path / "bytes.quest"
    path.write_bytes(bytes(range(256)) * 4_000)  # 1 MB: under the size limit (10 MB is a Q006)
    assert codes(check_file(path)) == ["Q001"]


@pytest.mark.parametrize("where", ["far apart", "long row"])
def test_a_map_too_large_to_analyse_is_refused(where):
    if where == "far apart":
        pieces = "piece Z1 room_4x4 at 0,0\npiece Z2 room_4x4 at 5000,5000\n"
    else:
        pieces = "".join(f"piece Z{i} room_4x4 at {4 * i},100\n" for i in range(MAX_MAP_CELLS // 16 + 2))
    result = check_source(QUEST + pieces, "huge.quest")
    assert "Q006" in codes(result)
    assert any(
        "floor cells" in d.message and d.label == "the map is too large from this piece on" for d in result.diagnostics
    )
    assert result.compiled is None


# ---- packs and YAML ------------------------------------------------------------------------


def _with_pack(tmp_path, use: str, pack_text: str | None = None, name: str = "pack.yaml"):
    project = tmp_path / "project"
    (project / "quests").mkdir(parents=True)
    (project / "questc.toml").write_text("", encoding="utf-8")
    if pack_text is not None:
        (project / "quests" / name).write_text(pack_text, encoding="utf-8")
    quest = project / "quests" / "q.quest"
    quest.write_text(SMALL.replace("  conquest 3\n", f'  conquest 3\n  use "{use}"\n'), encoding="utf-8")
    return quest


@pytest.mark.parametrize("use", ["../../../../etc/passwd", "/etc/passwd", "../../outside.yaml"])
def test_use_outside_the_project_is_refused(tmp_path, use):
    (tmp_path / "outside.yaml").write_text("monsters: {}\n", encoding="utf-8")
    result = check_file(_with_pack(tmp_path, use))
    assert "Q106" in codes(result), codes(result)
    assert not result.compiled


def test_yaml_tags_are_not_executed(tmp_path):
    marker = tmp_path / "pwned"
    pack = f"!!python/object/apply:os.system ['touch {marker}']\n"
    result = check_file(_with_pack(tmp_path, "pack.yaml", pack))
    assert "Q106" in codes(result)
    assert not marker.exists()


# ---- builds --------------------------------------------------------------------------------


def test_a_build_never_overwrites_its_source(tmp_path):
    source = tmp_path / "small.json"  # a quest file named like its own output
    text = SMALL.replace("  conquest 3\n", "  id small\n  conquest 3\n")
    source.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--only", "json", "-o", str(tmp_path), str(source)])
    assert result.exit_code == 1 and "refusing to overwrite" in result.output
    assert source.read_text(encoding="utf-8") == text


def test_an_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    from questc.emit import atomic

    target = tmp_path / "out.json"
    target.write_bytes(b'{"old": true}')

    def interrupted(fd):
        raise KeyboardInterrupt  # as if Ctrl-C arrived between writing and renaming

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_atomic(target, b'{"new": true}' * 1000)
    assert target.read_bytes() == b'{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


@pytest.mark.slow
def test_a_build_killed_midway_leaves_only_whole_files(tmp_path):
    """Kill `questc build` as soon as it reports its first file: every output present is
    complete (JSON parses, PNG and PDF have their end markers), nothing is half written."""
    quests = tmp_path / "quests"
    quests.mkdir()
    for path in sorted((ROOT / "quests").glob("*.quest")):
        (quests / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "build", "-o", str(out), str(quests)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT / "quests",
        text=True,
    )
    try:
        for line in process.stdout:
            if line.startswith("wrote "):
                process.send_signal(signal.SIGKILL)
                break
    finally:
        process.kill()
        process.wait()
    written = [p for p in out.iterdir() if not p.name.startswith(".")] if out.exists() else []
    assert written, "the build wrote nothing before it was killed"
    for path in written:
        data = path.read_bytes()
        if path.suffix == ".json":
            json.loads(data)
        elif path.suffix == ".png":
            assert data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")
        elif path.suffix == ".pdf":
            assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")


# ---- fast board paths against plain ones -----------------------------------------------------

sys.path.insert(0, str(ROOT / "tests"))
from test_sight_properties import random_map  # noqa: E402

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _plain_reach(board, start, allowed, passable, stairs_ok):
    seen = {
        c for c in start if board.is_floor(c) and not board.blocks_movement(c) and (allowed is None or c in allowed)
    }
    queue = deque(seen)
    while queue:
        a = queue.popleft()
        nexts = list(board.steps_from(a, passable))
        if stairs_ok:
            nexts += [s.ends[1] if s.ends[0] == a else s.ends[0] for s in board.stairs_at(a)]
        for b in nexts:
            if (
                b not in seen
                and board.is_floor(b)
                and not board.blocks_movement(b)
                and (allowed is None or b in allowed)
            ):
                seen.add(b)
                queue.append(b)
    return seen


@pytest.mark.slow
@settings(max_examples=25, **SETTINGS)
@given(st.integers(min_value=0, max_value=10**9))
def test_bitset_movement_equals_a_plain_walk(seed):
    pieces, doors, blocking, open_doors = random_map(seed, width=8, height=6)
    board = build_board(pieces, doors, [], blocking).board
    rng = random.Random(seed)
    allowed = {c for c in board.cells if rng.random() < 0.8} if seed % 2 else None
    for start in board.cells[:: max(1, len(board.cells) // 6)]:
        got = board.reachable([start], allowed, open_doors)
        assert got == _plain_reach(board, [start], allowed, open_doors, False), start


@settings(max_examples=12, **SETTINGS)
@given(st.integers(min_value=0, max_value=10**9))
@pytest.mark.slow
def test_sight_tables_in_any_order_of_door_states(seed):
    """Door states asked for one after another (growing, then shrinking) reuse each other's
    tables as bounds; every answer must still equal the reference."""
    pieces, doors, blocking, _ = random_map(seed, width=7, height=6)
    board = build_board(pieces, doors, [], blocking).board
    ids = sorted(board.doors)
    states = [frozenset(ids[:k]) for k in range(len(ids) + 1)] + [frozenset(ids[1::2]), frozenset()]
    for state in states:
        for a in board.cells:
            seen = board.visible_cells([a], "first", state)
            for b in board.cells:
                assert (b in seen) == sees_reference(board, a, b, "first", state), (sorted(state), a, b)


@pytest.mark.slow
def test_build_in_parallel_writes_what_a_serial_build_writes(tmp_path):
    quests = ROOT / "quests"
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        result = CliRunner().invoke(cli, ["build", "-j", jobs, "--only", "json,pdf", "-o", str(out), str(quests)])
        assert result.exit_code == 0, result.output
        files = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
        runs[jobs] = (result.output.replace(str(out), "OUT"), files)
    assert runs["1"] == runs["2"]
    assert len(runs["1"][1]) == 2 * len(list(quests.glob("*.quest")))
