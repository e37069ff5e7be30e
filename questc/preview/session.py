"""One quest previewed: checked again on every change, its last good scene kept, sight answered.

`Preview.refresh()` re-reads and re-checks the quest (never raising: whatever goes
wrong becomes a problem shown on the page). When the board could be built, a new
scene replaces the old one; when it could not (syntax or name errors, an unreadable
file), the last good scene stays and the state says it is stale, with the current
diagnostics. Each refresh bumps `version`; waiters (`wait_for_change`) wake up.
"""

from __future__ import annotations

import json
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from questc.api import QuestcError

if TYPE_CHECKING:
    from questc.api import CompiledQuest, Options, QuestResult, Span
    from questc.preview.scene import _Places

Cell = tuple[int, int]


class Snapshot:
    """A scene and what answers questions on it: the compiled quest it was drawn from."""

    def __init__(self, version: int, quest: CompiledQuest, data: dict):
        self.version = version
        self.quest = quest
        self.data = data
        board = quest.board
        self.board = board
        self.cells = list(board.cells)
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.sight_rule = quest.model.edition.sight  # the edition's line-of-sight rule
        self.door_ids = frozenset(quest.quest_board.door_edges)
        self._lock = threading.Lock()
        self._places: _Places | None = None

    def places(self):
        """Where each thing on the map was written (questc.preview.scene._Places), made on first use."""
        if self._places is None:
            from questc.preview.scene import _Places

            self._places = _Places(self.quest.model, self.quest.quest_board, self.quest.path)
        return self._places

    def source_of(self, cell: Cell | None = None, door: str | None = None) -> Span | None:
        """The statement that placed what is on a square, or a door's statement."""
        if door is not None:
            found = self.quest.model.doors.get(door)
            return found.node.span if found is not None else None
        return self.places().source_of(cell) if cell is not None else None

    def cells_at(self, offset: int) -> tuple[list[int], list[list[int]]]:
        """The thing written at `offset` in the quest's text (what the editor's cursor is on): its
        floor cells (indexes), and the squares off the map it was written at (their pins light up)."""
        from questc.api import Span

        source = self.quest.source
        line = source.count("\n", 0, offset) + 1
        column = offset - (source.rfind("\n", 0, offset) + 1) + 1
        point = Span(self.quest.path, line, column, line, column, offset, offset)
        cells = self.places().cells_of(point)
        return (
            sorted(self.index[c] for c in cells if c in self.index),
            sorted([c[0], c[1]] for c in cells if c not in self.index),
        )

    def sight(self, cell: Cell, open_doors) -> list[int]:
        """The indexes of the floor cells `cell` sees with these doors open (all others closed).

        The board's bulk sight, which equals `Board.why_blocked` (what `questc los`
        prints) cell for cell, without stairs, as `questc los` answers. Raises
        ValueError for a cell that is not floor or a door the map does not have.
        """
        if cell not in self.index:
            raise ValueError(f"{cell[0]},{cell[1]} is not a floor cell of this map")
        unknown = set(open_doors) - self.door_ids
        if unknown:
            raise ValueError(f"no door {', '.join(sorted(unknown))} on this map")
        with self._lock:  # the board's caches are not made for two threads at once
            seen = self.board.visible_cells([cell], self.sight_rule, frozenset(open_doors))
        return sorted(self.index[c] for c in seen)


class Preview:
    """The live state of one quest file for the preview server (thread-safe)."""

    def __init__(self, path: Path | str, options: Callable[[], Options | None] | None = None, picture=None):
        from questc.preview.drawing import map_picture

        self.path = Path(path)
        self._options = options or (lambda: None)
        self._picture = picture or map_picture
        self.version = 0
        self.snapshot: Snapshot | None = None  # the last good scene
        self.stale = False
        self.problem: str | None = None  # why there is no fresh scene, beyond diagnostics
        self.diagnostics: list[dict] = []  # of the latest check, for a stale page
        self.watched: set[Path] = {self.path.resolve()}
        self.timings: dict[str, float] = {}
        self._changed = threading.Condition()
        self._refresh_lock = threading.Lock()
        self._state_json: bytes | None = None
        self.closing = False
        # Set by the language server: asks the editor to show a span (questc's lines and columns)
        # with focus or not. None for `questc preview`, which has no editor to ask.
        self.on_show: Callable[[Span, bool], None] | None = None
        self.cursor: dict = {"seq": 0, "cells": [], "off_map": [], "scene_version": None}
        self._last_picture: tuple | None = None  # (the board, what was drawn on it, the picture)
        import secrets

        self.session = secrets.token_hex(4)  # a page that reconnects can tell a restarted server

    # -- checking -------------------------------------------------------------------
    def refresh(self) -> None:
        """Check the quest again and publish the new state. Never raises."""
        import time

        with self._refresh_lock:
            started = time.perf_counter()
            try:
                self._refresh()
            except Exception as error:  # noqa: BLE001 - bad input must never stop the server
                self.stale, self.diagnostics = True, []
                self.problem = f"internal error while checking: {type(error).__name__}: {error}"
                traceback.print_exc()
            self.timings["refresh"] = time.perf_counter() - started
            with self._changed:
                self.version += 1
                self._state_json = None
                self._changed.notify_all()

    def _refresh(self) -> None:
        from questc.api import check_file

        self.problem = None
        try:
            options = self._options()
            result = check_file(self.path, options)
        except QuestcError as error:
            self.stale, self.diagnostics, self.problem = True, [], str(error)
            return
        self._watch_packs(result, options)
        self._take(result)

    def publish(self, result: QuestResult) -> None:
        """Show a check someone else made (the language server's, of the editor's unsaved text);
        never raises. The scene is made here, the check is not made again."""
        import time

        with self._refresh_lock:
            started = time.perf_counter()
            try:
                self.problem = None
                self._take(result)
            except Exception as error:  # noqa: BLE001 - bad input must never stop the server
                self.stale, self.diagnostics = True, []
                self.problem = f"internal error while drawing: {type(error).__name__}: {error}"
            self.timings["refresh"] = time.perf_counter() - started
            with self._changed:
                self.version += 1
                self._state_json = None
                self._changed.notify_all()

    def _take(self, result: QuestResult) -> None:
        """A checked quest in: a new scene when it compiled, else the last scene kept, stale."""
        from questc.preview.scene import diagnostic_data, scene_data, sorted_diagnostics, source_lines

        quest = result.compiled
        if quest is None:
            lines = source_lines(result.source)
            self.stale = True
            self.diagnostics = sorted_diagnostics([diagnostic_data(d, lines, result.path) for d in result.diagnostics])
            return
        try:
            picture = self._drawn(quest)
            data = scene_data(quest, result.diagnostics, picture)
        except Exception as error:  # noqa: BLE001 - a map the drawing cannot draw: say so, keep the last one
            lines = source_lines(result.source)
            self.stale = True
            self.diagnostics = sorted_diagnostics([diagnostic_data(d, lines, result.path) for d in result.diagnostics])
            self.problem = f"the map could not be drawn: {type(error).__name__}: {error}"
            traceback.print_exc()
            return
        self.snapshot = Snapshot(self.version + 1, quest, data)
        self.stale = False
        self.diagnostics = data["diagnostics"]

    def _drawn(self, quest: CompiledQuest):
        """The map's picture: the last one again when the board and what is drawn on it are the same
        (questc.preview.drawing.picture_key), else drawn anew."""
        from questc.preview.drawing import picture_key

        key = picture_key(quest)
        cached = self._last_picture
        if cached is not None and cached[0] is quest.quest_board and cached[1] == key:
            return cached[2]
        picture = self._picture(quest)
        self._last_picture = (quest.quest_board, key, picture)
        return picture

    def _watch_packs(self, result: QuestResult, options: Options | None) -> None:
        """The files whose change changes the quest: the quest, its `use` packs, configured packs."""
        paths = {self.path.resolve()}
        header = result.tree.header if result.tree is not None else None
        if header is not None:
            for use in header.packs():
                paths.add((self.path.parent / use.value).resolve())
        if options is not None:
            base = options.packs_base or Path.cwd()
            for pack in options.packs:
                paths.add((Path(base) / pack).resolve())
        if result.tree is not None:  # keep the packs known while the file does not parse
            self.watched = paths
        else:
            self.watched |= paths

    # -- what the page reads -----------------------------------------------------------
    def state(self) -> dict:
        snap = self.snapshot
        return {
            "version": self.version,
            "session": self.session,
            "file": self.path.name,
            "stale": self.stale,
            "editor": self.on_show is not None,
            "problem": self.problem,
            "diagnostics": self.diagnostics,
            "scene_version": snap.version if snap else None,
            "scene": snap.data if snap else None,
        }

    def state_json(self) -> bytes:
        with self._changed:
            if self._state_json is None:
                self._state_json = json.dumps(self.state(), separators=(",", ":")).encode("utf-8")
            return self._state_json

    def sight(self, cell: Cell, open_doors, scene_version: int | None = None) -> dict:
        snap = self.snapshot
        if snap is None:
            raise ValueError("no map yet: the quest has not compiled")
        return {
            "scene_version": snap.version,
            "cell": list(cell),
            "open": sorted(set(open_doors)),
            "seen": snap.sight(cell, open_doors),
        }

    # -- the editor ------------------------------------------------------------------------
    def show(
        self, cell: Cell | None = None, door: str | None = None, span: tuple | None = None, focus: bool = False
    ) -> str | None:
        """Ask the editor to show the statement behind a square, a door or a diagnostic's span
        (line, column, end line, end column); None when asked, else why not."""
        from questc.api import Span

        if self.on_show is None:
            return "no editor: this preview was started by `questc preview`"
        snap = self.snapshot
        found = None
        if span is not None:
            found = Span(str(self.path), *span)
        elif snap is not None:
            found = snap.source_of(cell=cell, door=door)
        if found is None:
            return "nothing written there"
        self.on_show(found, focus)
        return None

    def set_cursor(self, offset: int | None) -> None:
        """The editor's cursor moved to `offset` in the quest's text: the page outlines what is there."""
        snap = self.snapshot
        cells, off_map = snap.cells_at(offset) if snap is not None and offset is not None else ([], [])
        with self._changed:
            if cells == self.cursor["cells"] and off_map == self.cursor["off_map"]:
                return
            self.cursor = {
                "seq": self.cursor["seq"] + 1,
                "cells": cells,
                "off_map": off_map,
                "scene_version": snap.version if snap is not None else None,
            }
            self._changed.notify_all()

    # -- waiting for changes -------------------------------------------------------------
    def wait_for_change(self, seen_version: int, timeout: float, seen_cursor: int | None = None) -> int:
        """Block until the version passes `seen_version` (or the cursor's `seen_cursor`), the preview
        closes, or `timeout`; the version out."""
        with self._changed:
            if (
                self.version <= seen_version
                and not self.closing
                and (seen_cursor is None or self.cursor["seq"] == seen_cursor)
            ):
                self._changed.wait(timeout)
            return self.version

    def close(self) -> None:
        with self._changed:
            self.closing = True
            self._changed.notify_all()
