"""Bytes and a target path in; the file written whole or not at all out.

Readers (an engine watching the build folder, a second `questc build`) must never see
half a file: the bytes go to a temporary file in the target's own folder (so the final
rename stays on one file system), are flushed and fsynced, and the temporary file is
then renamed over the target with `os.replace`, which is atomic on POSIX and Windows.
On any failure the temporary file is removed and the target is left as it was.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic", "rewrite_atomic"]


def _umask() -> int:
    """The process umask (reading it means setting it; it is put back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path | str, data: bytes, mode: int | None = None) -> Path:
    """Write `data` to `path` atomically; return the path written.

    The folder must exist. The new file gets the usual permissions for a new file
    (0666 less the umask), not the 0600 a temporary file is created with, or `mode`
    when given (a rewritten file keeps its own); a file already at `path` is
    replaced only once the new bytes are safely on disk.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if hasattr(os, "chmod"):
            os.chmod(temp_name, (0o666 & ~_umask()) if mode is None else mode)
        os.replace(temp_name, path)
    except BaseException:
        # Whatever went wrong (a full disk, an interrupt), no partial file may remain.
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
    _sync_folder(folder)
    return path


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX); best effort."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def rewrite_atomic(path: Path | str, data: bytes) -> Path:
    """Replace an existing file's bytes atomically, keeping its permissions; through a symbolic
    link the file it points to is rewritten and the link stays a link. Returns the file written."""
    import stat

    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(target.stat().st_mode)
    return write_atomic(target, data, mode=mode)
