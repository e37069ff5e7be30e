"""`questc preview` without a browser: the scene, sight against `questc los`, the server's
safety rules, staleness, file watching, the export and the command's start and stop."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import ctrl_c_works

from questc.api import check_file
from questc.cli import cli
from questc.preview.export import door_states, export_html
from questc.preview.scene import bitset
from questc.preview.server import serve
from questc.preview.session import Preview

QUESTS = REPO / "quests"


@pytest.fixture
def bells(tmp_path) -> Path:
    """The Bells of Lowmere (it uses a pack) in a folder of its own, with one warning at 7,4."""
    shutil.copytree(QUESTS / "packs", tmp_path / "packs")
    text = (QUESTS / "bells_of_lowmere.quest").read_text(encoding="utf-8")
    assert "  monster drowned_acolyte at 7,4\n" in text
    text = text.replace("  monster drowned_acolyte at 7,4\n", "  monster drowned_acolyte at 7,4 facing east\n")
    path = tmp_path / "bells.quest"
    path.write_text(text, encoding="utf-8")
    return path


def decode(bits: str, size: int) -> set[int]:
    import base64

    raw = base64.b64decode(bits)
    return {i for i in range(size) if raw[i >> 3] & (1 << (i & 7))}


# ---- the scene ---------------------------------------------------------------------------
def test_scene_cells_areas_waves_match_the_checked_quest(bells):
    preview = Preview(bells)
    preview.refresh()
    assert not preview.stale and preview.problem is None
    scene = preview.snapshot.data
    result = check_file(bells)
    board = result.compiled.board
    assert [tuple(c[:2]) for c in scene["cells"]] == list(board.cells)
    analysis = result.compiled.analysis
    assert [w["areas"] for w in scene["waves"]] == analysis.waves
    # each wave's reach grows and the last is what the analysis says heroes ever reach
    counts = [w["reached_count"] for w in scene["waves"]]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    last = decode(scene["waves"][-1]["reached"], len(board.cells))
    assert {board.cells[i] for i in last} == set(analysis.reached)
    layout = scene["map"]["layout"]
    assert (layout["columns"], layout["rows"]) == (board.width, board.height)
    # the map is the printed sheet's drawing (questc.draw), byte for byte: no second painter
    from questc.draw import map_svg
    from questc.preview.drawing import PREVIEW_CELL

    printed = map_svg(result.compiled, PREVIEW_CELL).decode("utf-8")
    assert printed.endswith(scene["map"]["svg"]) and printed.startswith("<?xml")  # less the XML declaration
    assert scene["map"]["svg"].count('class="cell" data-cell=') == len(board.cells)


def test_a_diagnostic_is_pinned_on_the_cell_it_is_about(bells):
    preview = Preview(bells)
    preview.refresh()
    scene = preview.snapshot.data
    (q211,) = [d for d in scene["diagnostics"] if d["code"] == "Q211"]
    cells = [tuple(scene["cells"][i][:2]) for i in q211["cells"]]
    assert cells == [(7, 4)] and tuple(scene["cells"][q211["anchor"]][:2]) == (7, 4)
    assert q211["severity"] == "warning" and "facing east" in q211["source"] and q211["help"]


def test_what_stands_on_a_cell(bells):
    preview = Preview(bells)
    preview.refresh()
    scene = preview.snapshot.data
    row = {tuple(c[:2]): c for c in scene["cells"]}
    assert "drowned acolyte, facing east" in row[(7, 4)][4]
    assert "glyph (active)" in row[(0, 2)][4]
    assert scene["areas"][row[(0, 2)][2]]["id"] == "A" and scene["pieces"][row[(0, 2)][3]] == "R1"


# ---- sight, exactly as `questc los` -------------------------------------------------------
@pytest.mark.slow
def test_sight_equals_questc_los_for_every_cell(bells):
    """Every cell against the function `questc los` prints (Board.why_blocked); a few through the command."""
    preview = Preview(bells)
    preview.refresh()
    snap = preview.snapshot
    board, edition = snap.board, snap.sight_rule
    runner = CliRunner()
    for source, doors in (((9, 4), ()), ((7, 4), ("nave",)), ((10, 9), ("crypt", "nave"))):
        seen = {snap.cells[i] for i in preview.sight(source, doors)["seen"]}
        assert seen == {t for t in snap.cells if board.why_blocked(source, t, edition, frozenset(doors)) is None}
        assert len(seen) > 1 and len(seen) < len(snap.cells)
        some = sorted(seen)[:: max(1, len(seen) // 3)][:3] + sorted(set(snap.cells) - seen)[::20][:3]
        for target in some:
            args = ["los", str(bells), f"{source[0]},{source[1]}", f"{target[0]},{target[1]}", "--json"]
            for door in doors:
                args += ["--open", door]
            answer = json.loads(runner.invoke(cli, args, catch_exceptions=False).output)
            assert answer["visible"] == (target in seen), (source, target, doors)


def test_sight_refuses_off_floor_cells_and_unknown_doors(bells):
    preview = Preview(bells)
    preview.refresh()
    with pytest.raises(ValueError, match="not a floor cell"):
        preview.sight((100, 100), ())
    with pytest.raises(ValueError, match="no door"):
        preview.sight((9, 4), ("postern",))


# ---- staleness ---------------------------------------------------------------------------
def test_syntax_error_keeps_the_last_good_scene_marked_stale(bells):
    preview = Preview(bells)
    preview.refresh()
    good = preview.snapshot
    bells.write_text(bells.read_text(encoding="utf-8") + "\npiece R9 room_4x4 at\n", encoding="utf-8")
    preview.refresh()
    state = preview.state()
    assert state["stale"] and state["scene_version"] == good.version and state["scene"] is good.data
    assert any(d["severity"] == "error" and d["code"].startswith("Q0") for d in state["diagnostics"])
    bells.unlink()
    preview.refresh()
    assert preview.stale and "cannot read" in preview.problem and preview.snapshot is good


def test_a_drawing_failure_is_reported_not_raised(bells):
    def broken(_result):
        raise RuntimeError("no ink")

    preview = Preview(bells, picture=broken)
    preview.refresh()
    assert preview.stale and "could not be drawn" in preview.problem and preview.snapshot is None


# ---- the server --------------------------------------------------------------------------
@pytest.fixture
def server(bells):
    preview = Preview(bells)
    preview.refresh()
    httpd = serve(preview, "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd
    preview.close()
    httpd.shutdown()
    httpd.server_close()


def request(httpd, path, method="GET", host=None):
    port = httpd.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.putrequest(method, path, skip_host=True)
    conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
    conn.endheaders()
    reply = conn.getresponse()
    body = reply.read()
    conn.close()
    return reply.status, body, reply


def test_server_binds_loopback_and_serves_its_routes(server):
    assert server.server_address[0] == "127.0.0.1"
    status, body, reply = request(server, "/")
    assert (
        status == 200 and b"/preview.js" in body and "script-src 'self'" in reply.getheader("Content-Security-Policy")
    )
    assert request(server, "/preview.js")[0] == 200 and request(server, "/preview.css")[0] == 200
    status, body, _ = request(server, "/api/state")
    state = json.loads(body)
    assert status == 200 and state["stale"] is False and len(state["scene"]["cells"]) == 110
    status, body, _ = request(server, "/api/sight?cell=9,4&open=crypt")
    assert status == 200 and json.loads(body)["open"] == ["crypt"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "", "localhost:1"])
@pytest.mark.slow
def test_server_refuses_foreign_host_headers(server, host):
    assert request(server, "/api/state", host=host)[0] == 421


def test_server_accepts_local_names(server):
    port = server.server_address[1]
    for host in ("localhost", f"localhost:{port}", "127.0.0.1", f"127.0.0.1:{port}", f"[::1]:{port}"):
        assert request(server, "/api/state", host=host)[0] == 200, host


@pytest.mark.parametrize(
    "path",
    [
        "/../bells.quest",
        "/bells.quest",
        "/packs/lowmere.yaml",
        "/%2e%2e/etc/passwd",
        "/static/preview.js",
        "/api/state/../../x",
        "//etc/passwd",
        "/page.html",
    ],
)
@pytest.mark.slow
def test_server_serves_no_file_by_name(server, path):
    assert request(server, path)[0] == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_server_never_writes(server, method, bells):
    before = bells.read_bytes()
    assert request(server, "/api/state", method=method)[0] == 405
    assert bells.read_bytes() == before


@pytest.mark.parametrize(
    "query",
    ["cell=9", "cell=a,b", "cell=100,100", "cell=9,4&open=postern", "cell=9,4&open=../x", "", "cell=99999999,1"],
)
@pytest.mark.slow
def test_bad_sight_questions_get_400_and_the_server_stays_up(server, query):
    assert request(server, "/api/sight?" + query)[0] == 400
    assert request(server, "/api/state")[0] == 200


@pytest.mark.slow
def test_events_announce_each_refresh(server, bells):
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/events", headers={"Host": f"localhost:{port}"})
    reply = conn.getresponse()
    assert reply.getheader("Content-Type") == "text/event-stream"
    first = reply.fp.readline() + reply.fp.readline()
    assert first == b"event: state\n" + b'data: {"version": 1}\n'
    reply.fp.readline()
    server.preview.refresh()
    assert reply.fp.readline() == b"event: state\n" and b'"version": 2' in reply.fp.readline()
    conn.close()


# ---- watching ------------------------------------------------------------------------------
def wait_for(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


@pytest.mark.slow
def test_saving_the_quest_or_its_pack_refreshes_within_a_second(bells):
    from questc.preview.watch import Watcher

    preview = Preview(bells)
    preview.refresh()
    watcher = Watcher(preview)
    watcher.start()
    try:
        time.sleep(0.3)  # the watch is set up
        version = preview.version
        text = bells.read_text(encoding="utf-8").replace("7,4 facing east", "7,4")
        started = time.monotonic()
        temp = bells.with_suffix(".tmp")
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, bells)  # as editors save: a new file renamed over the old one
        assert wait_for(lambda: preview.version > version and not preview.snapshot.data["diagnostics"])
        assert time.monotonic() - started < 1.0
        version = preview.version
        pack = bells.parent / "packs" / "lowmere.yaml"
        pack.write_text(pack.read_text(encoding="utf-8") + "\nnot: [valid\n", encoding="utf-8")
        assert wait_for(lambda: preview.version > version)
        assert preview.stale or any(d["code"] == "Q106" for d in preview.diagnostics)
    finally:
        watcher.stop()
    assert not watcher.thread.is_alive()


# ---- the export ------------------------------------------------------------------------------
@pytest.mark.slow
def test_export_is_self_contained_and_holds_every_door_state(bells):
    preview = Preview(bells)
    preview.refresh()
    html = export_html(preview)
    assert html == export_html(preview)  # same quest, same bytes
    assert "default-src 'none'" in html and 'src="' not in html and 'href="/' not in html
    assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", html)
    data = json.loads(
        re.search(r'<script type="application/json" id="questc-data">(.*?)</script>', html, re.S)
        .group(1)
        .replace("<\\/", "</")
    )
    tables = data["sight"]
    doors = sorted(preview.snapshot.door_ids)
    assert tables["exact"] and len(tables["states"]) == 2 ** len(doors)
    snap = preview.snapshot
    i = snap.index[(9, 4)]
    for state in ("", "crypt", "crypt,nave"):
        opened = [d for d in state.split(",") if d]
        row = tables["rows"][tables["states"][state][i]]
        assert decode(row, len(snap.cells)) == set(snap.sight((9, 4), opened))


def test_export_of_many_doors_keeps_them_closed():
    assert len(door_states([f"d{k}" for k in range(7)])) == 128
    assert door_states([f"d{k}" for k in range(8)]) == [()]
    assert bitset([0, 9], 10) == "AQI="


@pytest.mark.slow
def test_export_command(bells, tmp_path):
    out = tmp_path / "page.html"
    result = CliRunner().invoke(cli, ["preview", str(bells), "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bells.write_text("quest {\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["preview", str(bells), "--export", str(tmp_path / "no.html")])
    assert result.exit_code == 1 and "no map to export" in result.output
    assert not (tmp_path / "no.html").exists()


def test_preview_of_a_missing_file_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["preview", str(tmp_path / "none.quest")])
    assert result.exit_code == 2 and "no such quest file" in result.output


# ---- the command: start, warn, stop --------------------------------------------------------
def start(args, cwd):
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "preview", *args, "--port", "0"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_works,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[^ ]+/", line)
    assert match, (line, process.stderr.read() if process.poll() is not None else "")
    return process, match.group(0)


@pytest.mark.slow
def test_ctrl_c_stops_the_server_cleanly(bells):
    process, url = start([str(bells)], bells.parent)
    try:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/events", headers={"Host": f"127.0.0.1:{port}"})  # an open event stream
        assert conn.getresponse().status == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        errors = process.stderr.read()
        assert "stopped" in errors and "Traceback" not in errors
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.slow
def test_another_host_is_served_with_a_warning(bells):
    process, url = start([str(bells), "--host", "0.0.0.0"], bells.parent)
    try:
        assert url.startswith("http://0.0.0.0:")
        port = int(url.rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/api/state", headers={"Host": f"evil.example:{port}"})
        assert conn.getresponse().status == 421
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert "warning: serving on 0.0.0.0" in process.stderr.read()


def test_a_quest_with_check_errors_is_drawn_with_its_errors_pinned(bells):
    text = bells.read_text(encoding="utf-8").replace("7,4 facing east\n", "7,4\n  obstacle rubble at 7,4\n")
    bells.write_text(text, encoding="utf-8")
    preview = Preview(bells)
    preview.refresh()
    assert not preview.stale and preview.snapshot is not None  # the board was built: a map
    scene = preview.snapshot.data
    (q207,) = [d for d in scene["diagnostics"] if d["code"] == "Q207"]
    assert q207["severity"] == "error" and [tuple(scene["cells"][i][:2]) for i in q207["cells"]] == [(7, 4)]
    assert 'data-cell="7,4"' in scene["map"]["svg"]


def test_the_picture_is_kept_while_nothing_drawn_changes(tmp_path):
    """Typing in a `read` or the victory keeps the picture (the drawing is most of a scene's time);
    a moved monster or a renamed area draws it anew."""
    from questc.api import check_source, remember_boards
    from questc.preview.drawing import map_picture
    from questc.preview.session import Preview

    text = (REPO / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8")
    drawn = []
    preview = Preview(tmp_path / "q.quest", picture=lambda quest: drawn.append(1) or map_picture(quest))
    remember_boards(4)
    try:
        preview.publish(check_source(text, str(tmp_path / "q.quest")))
        first = preview.snapshot.data["map"]["svg"]
        preview.publish(check_source(text.replace("victory heroes", "\nvictory heroes"), str(tmp_path / "q.quest")))
        assert len(drawn) == 1 and preview.snapshot.data["map"]["svg"] == first
        name = re.search(r'area (\w+) "([^"]+)"', text)
        renamed = text.replace(f'"{name.group(2)}"', '"Another Name"', 1)
        preview.publish(check_source(renamed, str(tmp_path / "q.quest")))
        assert len(drawn) == 2
    finally:
        remember_boards(0)


@pytest.mark.parametrize(
    ("quest", "statement", "where"),
    [
        ("ember_reliquary_1.quest", "place 1 goblin_archer on Yard", "piece Yard"),  # reinforcements on a tile
        ("burning_well.quest", "spawn kobold at 0,2 0,3", "points"),  # a first edition spawn
    ],
)
def test_the_cursor_on_an_effect_that_places_outlines_where(quest, statement, where):
    """`place` and `spawn` put figures or tokens on the map during play: the editor's cursor on one
    outlines where (the piece, the area or the points it names), as on a monster written in an area."""
    from questc.preview.session import Preview

    path = REPO / "quests" / quest
    preview = Preview(path)
    preview.refresh()
    snapshot = preview.snapshot
    text = path.read_text(encoding="utf-8")
    cells, off_map = snapshot.cells_at(text.index(statement) + 2)
    squares = {tuple(snapshot.cells[i]) for i in cells}
    model = snapshot.quest.model
    if where == "points":
        assert squares == {(0, 2), (0, 3)}
    else:
        assert squares == set(model.pieces[where.split()[1]].shape.cells) and len(squares) > 4
    assert off_map == []
