"""`questc preview` in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium against a running `questc preview`, and the
exported page opened from disk.

Outside CI the tests skip, saying why, when the browser, its driver or selenium is
missing; under CI=true (where .ci/run installs them) a missing one fails instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import ctrl_c_works

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
SQUARES = "#pv-drawing g.cell[data-cell]"  # the map drawing's own squares (questc.draw marks each)


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    if not DRIVER.exists():
        return f"no driver at {DRIVER} (apt-get install chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


MISSING = _missing()
if MISSING and os.environ.get("CI") == "true":
    raise RuntimeError(f"CI=true but the browser tests cannot run: {MISSING}")
pytestmark = [pytest.mark.skipif(MISSING is not None, reason=MISSING or ""), pytest.mark.slow]  # a real browser


@pytest.fixture(scope="module")
def quest(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("preview")
    shutil.copytree(REPO / "quests" / "packs", folder / "packs")
    text = (REPO / "quests" / "bells_of_lowmere.quest").read_text(encoding="utf-8")
    text = text.replace("  monster drowned_acolyte at 7,4\n", "  monster drowned_acolyte at 7,4 facing east\n")
    path = folder / "bells.quest"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(quest):
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "preview", str(quest), "--port", "0"],
        cwd=quest.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_works,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[^ ]+/", line)
    if not match:
        process.kill()
        pytest.fail(f"questc preview did not start: {line} {process.stderr.read()}")
    yield match.group(0)
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        "--disable-extensions",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(browser, server):
    browser.get(server)
    wait(browser, lambda: count(browser, SQUARES) > 0)
    return browser


def wait(driver, predicate, timeout=5.0, what="the page"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"{what} did not change in {timeout} s")


def count(driver, selector) -> int:
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector)


def cells_of(driver, selector) -> set[tuple[int, int]]:
    values = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.dataset.cell)", selector
    )
    return {tuple(int(v) for v in value.split(",")) for value in values}


def click_cell(driver, x, y):
    from selenium.webdriver.common.action_chains import ActionChains

    target = driver.find_element("css selector", f'#pv-drawing g.cell[data-cell="{x},{y}"]')
    ActionChains(driver).move_to_element(target).click().perform()


def los_sees(quest, source, target, doors=()) -> bool:
    from questc.cli import cli

    args = ["los", str(quest), f"{source[0]},{source[1]}", f"{target[0]},{target[1]}", "--json"]
    for door in doors:
        args += ["--open", door]
    return json.loads(CliRunner().invoke(cli, args, catch_exceptions=False).output)["visible"]


def board_of(quest):
    from questc.api import check_file

    return check_file(quest).compiled.board


# ---- the live page --------------------------------------------------------------------------
def test_the_map_renders_with_every_square(page, quest):
    board = board_of(quest)
    assert count(page, "#pv-drawing") == 1
    # the squares of the map drawing itself (questc.draw marks each), and the page's layer over them
    assert cells_of(page, SQUARES) == set(board.cells)
    assert count(page, SQUARES) == len(board.cells)
    # the status counts what the list holds (this quest: one warning)
    assert page.find_element("id", "status").text == "1 warning"
    assert page.find_element("id", "status").get_attribute("data-state") == "warning"
    # the drawing itself is on screen at the map's size
    size = page.execute_script(
        "const r = document.getElementById('pv-drawing').getBoundingClientRect(); return [r.width, r.height]"
    )
    assert size[0] > 400 and size[1] > 300


def test_hover_tells_the_square(page):
    from selenium.webdriver.common.action_chains import ActionChains

    target = page.find_element("css selector", '#pv-drawing g.cell[data-cell="7,4"]')
    ActionChains(page).move_to_element(target).perform()
    wait(page, lambda: "7,4" in page.find_element("id", "hover-body").text)
    text = page.find_element("id", "hover-body").text
    assert "The Narthex" in text and "C1" in text and "drowned acolyte" in text


def test_a_diagnostic_is_pinned_where_it_belongs(page):
    pins = page.find_elements("css selector", ".pv-pin.warning")
    assert [p.get_attribute("data-anchor") for p in pins] == ["7,4"]
    item = page.find_element("css selector", '#diag-list li[data-code="Q211"]')
    assert "warning" in item.get_attribute("class")
    item.click()
    detail = page.find_element("id", "diag-detail")
    assert detail.is_displayed()
    assert "facing east" in detail.text and "help:" in detail.text and "64 |" in detail.text
    # the cells it is about outlined (7,4 alone: its four sides), its pin marked
    outline = page.execute_script("return document.querySelector('.pv-diag-cells').getAttribute('d')")
    assert sorted(outline.split("M")[1:]) == ["7 4h1", "7 4v1", "7 5h1", "8 4v1"]
    assert count(page, ".pv-pin.on") == 1
    item.click()  # again: unselected
    assert not page.find_element("id", "diag-detail").is_displayed()


def test_clicking_a_square_highlights_what_questc_los_sees(page, quest):
    board = board_of(quest)
    for source, doors in (((9, 4), ()), ((7, 3), ("nave",))):
        for door in doors:
            page.find_element("css selector", f'.pv-door[data-door="{door}"]').click()
            wait(page, lambda door=door: count(page, f'.pv-door.open[data-door="{door}"]') == 1)
        click_cell(page, *source)
        wait(
            page,
            lambda shown=f"{source[0]},{source[1]}": (
                count(page, ".pv-from") == 1
                and page.execute_script("return document.querySelector('.pv-from').dataset.cell") == shown
            ),
        )
        highlighted = cells_of(page, ".pv-seen") | {source}
        expected = {t for t in board.cells if board.why_blocked(source, t, "first", frozenset(doors)) is None}
        assert highlighted == expected
        for target in sorted(board.cells)[::9]:  # and through the command itself
            assert los_sees(quest, source, target, doors) == (target in highlighted), (source, target)
        click_cell(page, *source)  # clear
        wait(page, lambda: count(page, ".pv-from") == 0)
        for door in doors:
            page.find_element("css selector", f'.pv-door[data-door="{door}"]').click()


def test_the_wave_control_steps_through_the_reveal(page, quest):
    from questc.api import check_file

    analysis = check_file(quest).compiled.analysis
    last = len(analysis.waves) - 1
    label = page.find_element("id", "wave-label")
    assert label.text == f"wave {last} of {last}"
    for wave in range(last, -1, -1):
        assert label.text == f"wave {wave} of {last}"
        reached = len(analysis.reached_by_wave[wave])
        assert f"reach {reached} of" in page.find_element("id", "reach-count").text
        body = page.find_element("id", "wave-body").text
        assert all(area in body for area in analysis.waves[wave])
        if wave:
            page.find_element("id", "wave-prev").click()
    assert not page.find_element("id", "wave-prev").is_enabled()
    # the heroes' view hides every square not revealed by wave 0
    page.find_element("id", "view-heroes").click()
    hidden = page.execute_script("const f = document.querySelector('.pv-fog'); return f ? +f.dataset.count : 0")
    start = [a for a in analysis.waves[0]]
    board = board_of(quest)
    from questc.api import check_file as check

    model = check(quest).model
    shown = {c for a in start for c in model.areas[a].cells}
    assert hidden == len([c for c in board.cells if c not in shown])
    page.find_element("id", "view-overlord").click()
    assert count(page, ".pv-fog") == 0
    for _ in range(last):
        page.find_element("id", "wave-next").click()
    assert label.text == f"wave {last} of {last}"


def test_an_edit_on_disk_shows_up_keeping_wave_and_zoom(page, quest):
    page.find_element("id", "wave-prev").click()
    page.find_element("id", "zoom-in").click()
    view_box = page.execute_script("return document.getElementById('stage').style.transform")
    wave = page.find_element("id", "wave-label").text
    version = page.execute_script("return document.body.dataset.sceneVersion")
    text = quest.read_text(encoding="utf-8")
    started = time.monotonic()
    quest.write_text(text.replace("7,4 facing east", "7,4"), encoding="utf-8")
    wait(page, lambda: page.execute_script("return document.body.dataset.sceneVersion") != version, 3.0)
    elapsed = time.monotonic() - started
    assert count(page, ".pv-pin") == 0 and count(page, "#diag-list li") == 0
    assert page.find_element("id", "wave-label").text == wave
    assert page.execute_script("return document.getElementById('stage').style.transform") == view_box
    assert "scale(" in view_box
    assert elapsed < 1.0, f"the page took {elapsed:.2f} s to show the save"
    quest.write_text(text, encoding="utf-8")
    wait(page, lambda: count(page, ".pv-pin") == 1, 3.0)
    page.find_element("id", "zoom-fit").click()
    page.find_element("id", "wave-next").click()


def test_a_syntax_error_keeps_the_last_map(page, quest):
    text = quest.read_text(encoding="utf-8")
    squares = cells_of(page, SQUARES)
    version = page.execute_script("return document.body.dataset.version")
    quest.write_text(text.replace("piece C1 corridor_2x2 at 6,3", "piece C1 corridor_2x2 at 6,"), encoding="utf-8")
    try:
        wait(page, lambda: page.find_element("id", "status").text.startswith("stale · "), 3.0)
        assert "error" in page.find_element("id", "status").text
        assert page.execute_script("return document.body.dataset.version") != version
        assert cells_of(page, SQUARES) == squares and count(page, "#pv-drawing") == 1
        banner = page.find_element("id", "banner")
        assert banner.is_displayed() and "last one that compiled" in banner.text
        errors = page.find_elements("css selector", "#diag-list li.error")
        assert errors and errors[0].get_attribute("data-code").startswith("Q0")
        click_cell(page, 9, 4)  # sight still answers on the last good map
        wait(page, lambda: count(page, ".pv-seen") > 0)
        click_cell(page, 9, 4)
    finally:
        quest.write_text(text, encoding="utf-8")
    wait(page, lambda: page.find_element("id", "status").text == "1 warning", 3.0)
    assert not page.find_element("id", "banner").is_displayed()


# ---- the exported page -----------------------------------------------------------------------
def test_the_exported_page_works_from_disk_without_the_network(browser, quest, tmp_path):
    from questc.cli import cli

    out = tmp_path / "bells.html"
    result = CliRunner().invoke(cli, ["preview", str(quest), "--export", str(out)])
    assert result.exit_code == 0, result.output
    browser.get_log("performance")  # drop what came before
    browser.get_log("browser")
    browser.get(out.as_uri())
    wait(browser, lambda: count(browser, SQUARES) > 0)
    board = board_of(quest)
    assert count(browser, SQUARES) == len(board.cells)
    assert cells_of(browser, SQUARES) == set(board.cells)
    assert [p.get_attribute("data-anchor") for p in browser.find_elements("css selector", ".pv-pin")] == ["7,4"]
    browser.find_element("css selector", '.pv-door[data-door="nave"]').click()
    click_cell(browser, 7, 3)
    wait(browser, lambda: count(browser, ".pv-seen") > 0)
    expected = {t for t in board.cells if board.why_blocked((7, 3), t, "first", frozenset({"nave"})) is None}
    assert cells_of(browser, ".pv-seen") | {(7, 3)} == expected
    browser.find_element("id", "wave-prev").click()
    assert browser.find_element("id", "wave-label").text.startswith("wave 2 of")
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    assert requests and all(url == out.as_uri() or url.startswith("data:") for url in requests), requests
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


# ---- a quest with mistakes: status, order, pins off the map, excerpts, the heroes' view, keys ----
LONG_COMMENT = "  # " + "the acolyte faces the east door, where the bell rope hangs over the flooded stair"


@pytest.fixture(scope="module")
def flawed(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("flawed")
    shutil.copytree(REPO / "quests" / "packs", folder / "packs")
    text = (REPO / "quests" / "bells_of_lowmere.quest").read_text(encoding="utf-8")
    text = text.replace(
        "  monster drowned_acolyte at 7,4\n",
        "  monster drowned_acolyte at 7,4 facing east" + LONG_COMMENT + "\n  monster beastman at 40,4\n",
    )
    path = folder / "flawed.quest"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def flawed_url(flawed):
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "preview", str(flawed), "--port", "0"],
        cwd=flawed.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_works,
    )
    match = re.search(r"http://[^ ]+/", process.stdout.readline())
    assert match, process.stderr.read()
    yield match.group(0)
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.fixture
def flawed_page(browser, flawed_url):
    browser.get(flawed_url)
    wait(browser, lambda: count(browser, SQUARES) > 0)
    return browser


def test_the_status_counts_and_the_list_puts_errors_first(flawed_page):
    page = flawed_page
    status = page.find_element("id", "status")
    assert status.text == "1 error, 1 warning" and status.get_attribute("data-state") == "error"
    codes = [li.get_attribute("data-code") for li in page.find_elements("css selector", "#diag-list li")]
    assert codes == ["Q204", "Q211"]  # the error first, though its line comes after the warning's


def test_a_figure_off_the_map_is_pinned_at_its_edge(flawed_page, flawed):
    page = flawed_page
    pins = page.execute_script(
        "return [...document.querySelectorAll('.pv-pin.off')]"
        ".map(p => [p.dataset.anchor, p.getAttribute('aria-label')])"
    )
    columns = max(x for x, _ in board_of(flawed).cells)
    assert len(pins) == 1 and pins[0][0] == f"{columns},4" and "40,4" in pins[0][1]


def test_the_source_excerpt_is_whole(flawed_page):
    page = flawed_page
    page.find_element("css selector", '#diag-list li[data-code="Q211"]').click()
    pre = page.find_element("css selector", "#diag-detail pre")
    assert LONG_COMMENT.strip() in pre.get_attribute("textContent")
    link = page.find_element("css selector", "#diag-detail a.docs")
    assert link.get_attribute("href").endswith("#q211") or "Q211" in link.get_attribute("href").upper()


def test_the_heroes_view_leaks_nothing(flawed_page, flawed):
    page = flawed_page
    page.find_element("id", "view-heroes").click()
    for _ in range(5):
        page.find_element("id", "wave-prev").click()
    legend = page.find_element("id", "legend-list").text
    assert "Relic" not in legend and "Named monster" not in legend and "Floor" in legend
    # The fog covers everything but the revealed squares: one hole each, nothing else drawn over it.
    from questc.api import check_file

    quest = check_file(flawed).compiled
    first = quest.analysis.waves[0]
    shown = {c for a in first for c in quest.model.areas[a].cells if c in set(quest.board.cells)}
    holes = page.execute_script("return document.querySelector('#pv-fog-mask path').getAttribute('d')")
    assert holes.count("M") == len(shown)
    assert page.execute_script("return document.querySelector('.pv-fog').getAttribute('mask')") == "url(#pv-fog-mask)"
    # A covered square: no sight, no words about it.
    hidden = next(c for c in sorted(quest.board.cells) if c not in shown)
    # Selected as selectSquare() selects (by index and by key), so a scene sent again keeps it.
    page.execute_script(
        "const p = window.questcPreview; p.ui.selected = p.scene.index.get(arguments[0]); p.ui.selectedKey = arguments[0];",
        f"{hidden[0]},{hidden[1]}",
    )
    page.find_element("id", "show-reach").click()  # any redraw
    page.find_element("id", "show-reach").click()
    page.find_element("id", "view-overlord").click()
    page.find_element("id", "view-heroes").click()
    wait(page, lambda: "not revealed" in page.find_element("id", "selection-body").text)
    assert count(page, ".pv-seen") == 0
    # A revealed square sees only revealed squares.
    page.execute_script("window.questcPreview.ui.selected = null")
    click_cell(page, *sorted(shown)[0])
    wait(page, lambda: count(page, ".pv-from") == 1)
    assert cells_of(page, ".pv-seen") <= shown
    page.find_element("id", "view-overlord").click()
    assert "Relic" in page.find_element("id", "legend-list").text


def test_a_sight_answered_late_never_shows_a_covered_square(flawed_page, flawed):
    """A square's sight asked for in the overlord's view and answered after the heroes' view took
    over (a slow server: the answer held here) is dropped: the covered square keeps no words and
    no sight of it."""
    from questc.api import check_file

    page = flawed_page
    quest = check_file(flawed).compiled
    first = quest.analysis.waves[0]
    shown = {c for a in first for c in quest.model.areas[a].cells if c in set(quest.board.cells)}
    hidden = next(c for c in sorted(quest.board.cells, reverse=True) if c not in shown)
    page.find_element("id", "view-overlord").click()
    for _ in range(5):
        page.find_element("id", "wave-prev").click()
    page.execute_script(
        "window.questcPreview.ui.selected = null; window.questcPreview.forgetSight();"
        "window.realFetch = window.fetch; window.heldSight = [];"
        "window.fetch = (url, options) => String(url).includes('/api/sight')"
        "  ? new Promise((done) => window.heldSight.push(() => done(window.realFetch(url, options))))"
        "  : window.realFetch(url, options);"
    )
    body = page.find_element("id", "selection-body")
    try:
        click_cell(page, *hidden)  # the overlord sees the square: its sight is asked for, and held
        wait(page, lambda: page.execute_script("return window.heldSight.length") > 0)
        page.find_element("id", "view-heroes").click()
        wait(page, lambda: "not revealed" in body.text)
        page.execute_script("window.heldSight.forEach((answer) => answer())")
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            assert "not revealed" in body.text and count(page, ".pv-seen") == 0
            time.sleep(0.02)
    finally:
        page.execute_script("window.fetch = window.realFetch; window.questcPreview.ui.selected = null;")
        page.find_element("id", "view-overlord").click()


def test_the_side_panel_resizes(flawed_page):
    from selenium.webdriver.common.keys import Keys

    page = flawed_page
    before = page.execute_script("return document.getElementById('side').offsetWidth")
    bar = page.find_element("id", "splitter")
    for _ in range(3):
        bar.send_keys(Keys.ARROW_LEFT)
    assert page.execute_script("return document.getElementById('side').offsetWidth") == before + 60
    for _ in range(3):
        bar.send_keys(Keys.ARROW_RIGHT)


def test_a_selected_diagnostic_is_brought_into_view(flawed_page):
    page = flawed_page
    for _ in range(8):
        page.find_element("id", "zoom-in").click()
    page.find_element("css selector", '#diag-list li[data-code="Q211"]').click()
    inside = page.execute_script("""
        const pin = document.querySelector('.pv-pin.on').getBoundingClientRect();
        const box = document.getElementById('map').getBoundingClientRect();
        return pin.left >= box.left && pin.right <= box.right && pin.top >= box.top && pin.bottom <= box.bottom;""")
    assert inside
    page.find_element("id", "zoom-fit").click()


def test_the_selection_follows_its_diagnostic_across_edits(flawed_page, flawed):
    page = flawed_page
    page.find_element("css selector", '#diag-list li[data-code="Q211"]').click()
    assert page.find_element("css selector", "#diag-list li.on").get_attribute("data-code") == "Q211"
    text = flawed.read_text(encoding="utf-8")
    version = page.execute_script("return document.body.dataset.version")
    # Another error, written before it: the list grows above the selected warning.
    flawed.write_text(
        text.replace("  monster beastman at 40,4\n", "  monster beastman at 40,4\n  monster beastman at 41,4\n"),
        encoding="utf-8",
    )
    try:
        wait(
            page,
            lambda: (
                page.execute_script("return document.body.dataset.version") != version
                and count(page, "#diag-list li") == 3
            ),
            5.0,
        )
        assert page.execute_script("return document.querySelector('#diag-list li.on').dataset.code") == "Q211"
    finally:
        flawed.write_text(text, encoding="utf-8")
    wait(page, lambda: count(page, "#diag-list li") == 2, 5.0)


def test_hover_gives_the_square_as_a_writer_types_it_with_copy(flawed_page):
    from selenium.webdriver.common.action_chains import ActionChains

    page = flawed_page
    origin = page.current_url.rstrip("/")
    page.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]}
    )
    target = page.find_element("css selector", '#pv-drawing g.cell[data-cell="7,4"]')
    ActionChains(page).move_to_element(target).perform()
    wait(page, lambda: count(page, "#hover-written") == 1)
    assert page.find_element("id", "hover-written").text == "C1:1,1"  # piece C1 stands at 6,3
    page.find_element("css selector", "#hover-body button.copy").click()
    copied = page.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))")
    assert copied == "C1:1,1"


def test_the_keyboard_reaches_squares_pins_and_the_list(flawed_page):
    from selenium.webdriver.common.keys import Keys

    page = flawed_page
    box = page.find_element("id", "map")
    box.click()  # focus (a click on a square also selects it: clear that)
    page.execute_script("window.questcPreview.ui.selected = null")
    box.send_keys(Keys.ESCAPE)
    page.execute_script("document.getElementById('map').focus()")
    box.send_keys(Keys.ARROW_RIGHT)  # the first square gets the focus
    box.send_keys(Keys.ARROW_RIGHT)
    assert count(page, ".pv-focus") == 1
    focused = cells_of(page, ".pv-focus")
    box.send_keys(Keys.ENTER)
    wait(page, lambda: count(page, ".pv-from") == 1)
    assert cells_of(page, ".pv-from") == focused
    # A pin: Tab reaches it, Enter opens its diagnostic.
    page.execute_script("document.querySelector('.pv-pin').focus()")
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda: page.find_element("id", "diag-detail").is_displayed())
    # The list: Enter selects, arrows move.
    first = page.find_element("css selector", "#diag-list li")
    page.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.ARROW_DOWN)
    second = page.switch_to.active_element
    assert second.get_attribute("data-code") == "Q211"
    second.send_keys(Keys.ENTER)
    assert "on" in second.get_attribute("class")
    # A door: Tab reaches it, Enter opens it.
    door = page.find_element("css selector", '.pv-door[data-door="nave"]')
    page.execute_script("arguments[0].focus()", door)
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda: count(page, '.pv-door.open[data-door="nave"]') == 1)
    page.switch_to.active_element.send_keys(Keys.ENTER)


def test_the_map_prints_whole(flawed_page):
    page = flawed_page
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        hidden = page.execute_script(
            "return ['side', 'bar', 'pv-layer'].map(id => getComputedStyle(document.getElementById(id)).display)"
        )
        assert hidden == ["none", "none", "none"]
        width, view = page.execute_script(
            "return [document.getElementById('pv-drawing').getBoundingClientRect().width, window.innerWidth]"
        )
        transform = page.execute_script("return getComputedStyle(document.getElementById('stage')).transform")
        assert transform == "none" and width > 0.9 * view - 40
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


@pytest.mark.slow
def test_eight_tabs_share_one_event_stream_and_all_follow(browser, flawed_url, flawed):
    """A browser opens six connections to a server at most: a stream per tab froze the sixth."""
    main = browser.current_window_handle
    tabs = []
    for _ in range(8):
        browser.switch_to.new_window("tab")
        browser.get(flawed_url)
        wait(browser, lambda: count(browser, SQUARES) > 0, 10.0, "a new tab")
        tabs.append(browser.current_window_handle)
    text = flawed.read_text(encoding="utf-8")
    flawed.write_text(text.replace('quest "The Bells of Lowmere"', 'quest "The Bells of Eight Tabs"'), encoding="utf-8")
    try:
        for tab in tabs:
            browser.switch_to.window(tab)
            wait(
                browser,
                lambda: browser.find_element("id", "title").text == "The Bells of Eight Tabs",
                10.0,
                "every tab",
            )
    finally:
        flawed.write_text(text, encoding="utf-8")
        for tab in tabs:
            browser.switch_to.window(tab)
            browser.close()
        browser.switch_to.window(main)


def test_without_a_shared_worker_the_page_asks_now_and_then(browser, flawed_url, flawed):
    """A browser without shared workers: the page polls the state, holding no connection, and follows."""
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})
    text = flawed.read_text(encoding="utf-8")
    try:
        browser.get(flawed_url)
        wait(browser, lambda: count(browser, SQUARES) > 0, 10.0)
        assert browser.execute_script("return window.SharedWorker === undefined")
        flawed.write_text(text.replace('quest "The Bells of Lowmere"', 'quest "The Polled Bells"'), encoding="utf-8")
        wait(browser, lambda: browser.find_element("id", "title").text == "The Polled Bells", 10.0, "the polling page")
    finally:
        flawed.write_text(text, encoding="utf-8")
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
