"""Re-check the quest whenever it or a pack it uses is saved (watchfiles, on a thread).

The folders holding the watched files are watched, not the files: editors often save
by writing a new file and renaming it over the old one, which a watch on the old
file would miss. Only changes to the watched files themselves count. When a refresh
changes the set of files (a new `use` line), the watch starts again on the new set.
"""

from __future__ import annotations

import threading
from pathlib import Path

# watchfiles waits this long after a change for more (an editor's write, then rename)
# before reporting them together: well inside the one-second budget from save to page.
_STEP_MS = 30
_DEBOUNCE_MS = 300


class Watcher:
    """A daemon thread calling `preview.refresh()` after each change to `preview.watched`."""

    def __init__(self, preview, force_polling: bool | None = None):
        self.preview = preview
        self.stop_event = threading.Event()
        self.force_polling = force_polling
        self.thread = threading.Thread(target=self._run, name="questc-preview-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        from watchfiles import watch

        while not self.stop_event.is_set():
            targets = set(self.preview.watched)
            folders = sorted({str(p.parent) for p in targets if p.parent.is_dir()})
            if not folders:
                self.stop_event.wait(0.5)
                continue
            names = {str(p) for p in targets}

            def wanted(_change, path: str, names=names) -> bool:
                return str(Path(path).resolve()) in names or path in names

            try:
                for _changes in watch(
                    *folders,
                    watch_filter=wanted,
                    debounce=_DEBOUNCE_MS,
                    step=_STEP_MS,
                    stop_event=self.stop_event,
                    recursive=False,
                    raise_interrupt=False,
                    force_polling=self.force_polling,
                ):
                    self.preview.refresh()
                    if set(self.preview.watched) != targets:
                        break  # watch the new set of files
            except Exception as error:  # noqa: BLE001 - a folder removed under us, a watch limit reached: retry
                import sys

                print(f"questc preview: watching stopped ({type(error).__name__}: {error}); retrying", file=sys.stderr)
                self.stop_event.wait(1.0)
