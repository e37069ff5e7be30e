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

__all__ = ["replace_folder_atomic", "rewrite_atomic", "write_all_atomic", "write_atomic"]


def _umask() -> int:
    """The process umask (reading it means setting it; it is put back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path | str, data: bytes, mode: int | None = None) -> Path:
    """Write `data` to `path` atomically; return the path written.

    The folder must exist. The new file gets the usual permissions for a new file
    (0666 less the umask), not the 0600 a temporary file is created with, or `mode`
    when given (a rewritten file keeps its own); a file already at `path` is replaced
    only once the new bytes are safely on disk.
    """
    return write_all_atomic({Path(path): data}, mode)[0]


def rewrite_atomic(path: Path | str, data: bytes) -> Path:
    """Replace an existing file's bytes atomically, keeping its permissions; through a symbolic
    link the file it points to is rewritten and the link stays a link. Returns the file written."""
    import stat

    target = Path(os.path.realpath(path))
    return write_atomic(target, data, mode=stat.S_IMODE(target.stat().st_mode))


def write_all_atomic(files: dict[Path, bytes], mode: int | None = None) -> list[Path]:
    """Write several files (one quest's outputs) each atomically and all or none; return the paths.

    Every file's bytes reach the disk (as temporary files) before the first rename, so
    a full disk or an interrupt while writing leaves every target as it was. An OSError
    names the target that could not be written (its `filename`).
    """
    temps: list[tuple[str, Path]] = []
    path = Path(".")
    try:
        for path, data in files.items():
            folder = path.parent if str(path.parent) else Path(".")
            fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
            temps.append((temp_name, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if hasattr(os, "chmod"):
                os.chmod(temp_name, (0o666 & ~_umask()) if mode is None else mode)
        for temp_name, path in temps:
            os.replace(temp_name, path)
    except BaseException as error:
        # Whatever went wrong (a full disk, an interrupt), no partial file may remain.
        for temp_name, _ in temps:
            try:
                os.unlink(temp_name)
            except FileNotFoundError:
                pass
        if isinstance(error, OSError):
            raise OSError(error.errno, error.strerror or str(error), str(path)) from error
        raise
    for folder in dict.fromkeys(p.parent if str(p.parent) else Path(".") for _, p in temps):
        _sync_folder(folder)
    return [path for _, path in temps]


def replace_folder_atomic(target: Path | str, files: dict[str, bytes]) -> Path:
    """Make the folder `target` hold exactly `files` (name -> bytes, names without folders), all or
    nothing; return it.

    The files are written and fsynced into a temporary folder beside the target, which then
    takes the target's place: a first rename moves an old folder aside, a second puts the
    new one in, and the old one is removed. A reader sees the old folder or the new one,
    never a mix (for the instant between the renames, none). On any failure the temporary
    folder is removed and the old folder is put back. The caller decides whether an old
    folder may be replaced at all.
    """
    import shutil

    target = Path(target)
    parent = target.parent if str(target.parent) else Path(".")
    temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    aside: Path | None = None
    try:
        for name, data in files.items():
            if Path(name).name != name or name in (".", ".."):
                raise ValueError(f"{name!r} is not a plain file name")
            with open(temp / name, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp / name, 0o666 & ~_umask())
        os.chmod(temp, 0o777 & ~_umask())
        _sync_folder(temp)
        if target.exists() or target.is_symlink():
            aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=parent))
            os.rmdir(aside)           # a fresh name for the old folder, free again for the rename
            os.rename(target, aside)
        os.rename(temp, target)
    except BaseException as error:
        shutil.rmtree(temp, ignore_errors=True)
        if aside is not None and aside.exists() and not target.exists():
            os.rename(aside, target)
        if isinstance(error, OSError) and not error.filename:
            raise OSError(error.errno, error.strerror or str(error), str(target)) from error
        raise
    if aside is not None:
        shutil.rmtree(aside, ignore_errors=True)
    _sync_folder(parent)
    return target


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
