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
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from questc.api import QuestcError

if TYPE_CHECKING:
    from questc.api import CompiledQuest
    from questc.api import Options
    from questc.api import QuestResult

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
        self.sight_rule = quest.model.edition.sight   # the edition's line-of-sight rule
        self.door_ids = frozenset(quest.quest_board.door_edges)
        self._lock = threading.Lock()

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
        with self._lock:   # the board's caches are not made for two threads at once
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
        self.snapshot: Snapshot | None = None   # the last good scene
        self.stale = False
        self.problem: str | None = None          # why there is no fresh scene, beyond diagnostics
        self.diagnostics: list[dict] = []        # of the latest check, for a stale page
        self.watched: set[Path] = {self.path.resolve()}
        self.timings: dict[str, float] = {}
        self._changed = threading.Condition()
        self._refresh_lock = threading.Lock()
        self._state_json: bytes | None = None
        self.closing = False

    # -- checking -------------------------------------------------------------------
    def refresh(self) -> None:
        """Check the quest again and publish the new state. Never raises."""
        import time

        with self._refresh_lock:
            started = time.perf_counter()
            try:
                self._refresh()
            except Exception as error:   # noqa: BLE001 - bad input must never stop the server
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
        from questc.preview.scene import diagnostic_data, scene_data, source_lines

        self.problem = None
        try:
            options = self._options()
            result = check_file(self.path, options)
        except QuestcError as error:
            self.stale, self.diagnostics, self.problem = True, [], str(error)
            return
        self._watch_packs(result, options)
        quest = result.compiled
        if quest is None:
            lines = source_lines(result.source)
            self.stale = True
            self.diagnostics = [diagnostic_data(d, lines, result.path) for d in result.diagnostics]
            return
        try:
            picture = self._picture(quest)
            data = scene_data(quest, result.diagnostics, picture)
        except Exception as error:   # noqa: BLE001 - a map the drawing cannot draw: say so, keep the last one
            lines = source_lines(result.source)
            self.stale = True
            self.diagnostics = [diagnostic_data(d, lines, result.path) for d in result.diagnostics]
            self.problem = f"the map could not be drawn: {type(error).__name__}: {error}"
            traceback.print_exc()
            return
        self.snapshot = Snapshot(self.version + 1, quest, data)
        self.stale = False
        self.diagnostics = data["diagnostics"]

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
        if result.tree is not None:   # keep the packs known while the file does not parse
            self.watched = paths
        else:
            self.watched |= paths

    # -- what the page reads -----------------------------------------------------------
    def state(self) -> dict:
        snap = self.snapshot
        return {
            "version": self.version, "file": self.path.name, "stale": self.stale,
            "problem": self.problem, "diagnostics": self.diagnostics,
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
        return {"scene_version": snap.version, "cell": list(cell), "open": sorted(set(open_doors)),
                "seen": snap.sight(cell, open_doors)}

    # -- waiting for changes -------------------------------------------------------------
    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        """Block until the version passes `seen_version`, the preview closes, or `timeout`; the version out."""
        with self._changed:
            if self.version <= seen_version and not self.closing:
                self._changed.wait(timeout)
            return self.version

    def close(self) -> None:
        with self._changed:
            self.closing = True
            self._changed.notify_all()
