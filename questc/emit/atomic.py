"""Bytes and target paths in; the files written whole, and a set of files all or none, out.

Readers (an engine watching the build folder, a second `questc build`) must never see
half a file, nor one quest's new JSON beside its old PDF:

1. Each file's bytes go to an unnamed file in the target's folder (Linux's O_TMPFILE;
   elsewhere a hidden named temporary file), flushed and fsynced. A process killed here
   (even by SIGKILL) leaves nothing: an unnamed file vanishes with its process.
2. Under an exclusive lock on the folder (held for the whole write), the files are given hidden names
   (`.NAME.questc-XXXX.tmp`), a journal listing the renames is written
   (`.questc-journal-XXXX`, itself atomically), each temporary file is renamed over its
   target (`os.replace`, atomic on POSIX and Windows), and the journal is removed.
3. `recover(folder)`, which every write into a folder runs first under the same lock,
   finishes what a killed process left: the renames of a journal are carried out (the set
   is then wholly new) and stray temporary files of ours without a journal are removed
   (the set stays wholly old).

So a set is never mixed once any questc command has written into its folder again, and
step 2 takes microseconds. On any failure that is not a kill, the temporary files are
removed and every target is left as it was.

A target that already exists and is not a regular file (`-o /dev/null`, `-o /dev/stdout`,
a named pipe, a terminal) is written into, as a shell redirection would: renaming a file
over it would replace the device or the pipe itself (as root, /dev/null with a regular
file). A pipe nobody reads is an error at once, never a hang; a block device is refused.
A target that is a symbolic link is written through it, to the file it names (a link
that loops, or whose folder does not exist, is an OSError).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["recover", "replace_folder_atomic", "rewrite_atomic", "write_all_atomic", "write_atomic"]

_JOURNAL = ".questc-journal-"
_TEMP = re.compile(r"^\..+\.questc-[A-Za-z0-9_]+\.tmp$|^\.questc-probe-[0-9a-f]+\.tmp$")


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


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


class _Staged:
    """One file's bytes on disk, not yet under any name of the folder (or under a hidden one)."""

    def __init__(self, target: Path, fd: int | None, name: str | None) -> None:
        self.target, self.fd, self.name = target, fd, name

    def discard(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.name is not None:
            try:
                os.unlink(self.name)
            except FileNotFoundError:
                pass
            self.name = None


def _stage(target: Path, data: bytes, mode: int) -> _Staged:
    """Write `data` to an unnamed file in the target's folder (a named hidden one where the
    system has no unnamed files), fsynced, with its final permissions."""
    folder = _folder(target)
    fd = None
    if _unnamed_files_work(folder):
        try:
            fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
        except OSError:
            fd = None
    staged = _Staged(target, fd, None)
    if fd is None:
        fd, staged.name = tempfile.mkstemp(prefix=f".{target.name}.questc-", suffix=".tmp", dir=folder)
        staged.fd = fd
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        elif staged.name is not None:
            os.chmod(staged.name, mode)
    except BaseException:
        staged.discard()
        raise
    return staged


_UNNAMED: dict[int, bool] = {}  # device -> can an unnamed file there be given a name


def _unnamed_files_work(folder: Path) -> bool:
    """Can this folder hold an O_TMPFILE that is later linked to a name? Not on every system
    or file system (nor through /proc in every sandbox): tried once per device."""
    if not hasattr(os, "O_TMPFILE") or not os.path.isdir("/proc/self/fd"):
        return False
    try:
        device = os.stat(folder).st_dev
    except OSError:
        return False
    if device not in _UNNAMED:
        works = False
        try:
            fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
        except OSError:
            fd = None
        if fd is not None:
            probe = str(folder / f".questc-probe-{os.urandom(6).hex()}.tmp")
            try:
                os.link(f"/proc/self/fd/{fd}", probe, follow_symlinks=True)
                os.unlink(probe)
                works = True
            except OSError:
                pass
            finally:
                os.close(fd)
        _UNNAMED[device] = works
    return _UNNAMED[device]


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder itself (flock on its descriptor: no lock file), where the
    system has one; the kernel drops it when the process dies, however it dies."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; writes into one folder at once are the user's to avoid
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass  # a file system without locks: go on unlocked
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def recover(folder: Path | str) -> None:
    """Finish what a questc process killed while writing into `folder` left there: a journal's
    renames are carried out; stray temporary files of ours are removed. Best effort."""
    with _locked(Path(folder)):
        _recover(Path(folder))


def _recover(folder: Path) -> None:
    try:
        names = os.listdir(folder)
    except OSError:
        return
    pending = set()
    for name in sorted(n for n in names if n.startswith(_JOURNAL) and not n.endswith(".tmp")):
        journal = folder / name
        try:
            renames = json.loads(journal.read_text(encoding="utf-8"))["renames"]
            for temp, target in renames:
                pending.add(temp)
                if (folder / temp).exists():
                    if (folder / temp).is_dir() and (folder / target).is_dir() and not (folder / target).is_symlink():
                        shutil.rmtree(folder / target)  # a folder being replaced whole (replace_folder_atomic)
                    os.replace(folder / temp, folder / target)
            os.unlink(journal)
        except (OSError, ValueError, KeyError, TypeError):
            continue  # unreadable: leave it, and its files, for a person to look at
    for name in names:
        if (_TEMP.match(name) or (name.startswith(_JOURNAL) and name.endswith(".tmp"))) and name not in pending:
            try:
                if (folder / name).is_dir() and not (folder / name).is_symlink():
                    shutil.rmtree(folder / name)  # a folder staged or set aside by replace_folder_atomic
                else:
                    os.unlink(folder / name)
            except OSError:
                pass


def _link(staged: _Staged) -> None:
    """Give an unnamed staged file a hidden name beside its target."""
    if staged.name is not None:
        return
    folder = _folder(staged.target)
    for _ in range(100):
        name = str(folder / f".{staged.target.name}.questc-{os.urandom(6).hex()}.tmp")
        try:
            os.link(f"/proc/self/fd/{staged.fd}", name, follow_symlinks=True)
        except FileExistsError:
            continue
        staged.name = name
        return
    raise FileExistsError(f"no free temporary name beside {staged.target}")


def _special(path: Path) -> bool:
    """Does `path` name (through any link) something that exists and is neither a regular file
    nor a folder: a device, a named pipe, a socket?"""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _through_link(path: Path) -> Path:
    """The file a symbolic link names, however many links deep (OSError for a link that loops)."""
    import errno

    if not os.path.islink(path):
        return path
    target = Path(os.path.realpath(path))
    if os.path.islink(target):  # realpath stops where links loop
        raise OSError(errno.ELOOP, "it is a symbolic link that loops", str(path))
    return target


def _write_into(path: Path, data: bytes) -> None:
    """Write `data` into a device or a pipe that is there already (no rename can be atomic there)."""
    import errno
    import fcntl
    import stat

    if stat.S_ISBLK(os.stat(path).st_mode):
        raise OSError(errno.EINVAL, "it is a block device, not a file to write a report into", str(path))
    try:  # not blocking on a pipe with no reader: that would wait for ever
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "it is a named pipe that nothing reads", str(path)) from None
        raise
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_all_atomic(files: dict[Path, bytes], mode: int | None = None) -> list[Path]:
    """Write several files (one quest's outputs) each atomically and all or none; return the paths.

    Every file's bytes reach the disk before the first rename, and the renames are
    journalled (see the module's docstring), so neither a full disk, an interrupt nor a
    killed process leaves a set that mixes old and new files. An OSError names the
    target that could not be written (its `filename`). A target that is a device or a
    pipe already is written into, not replaced (the module's docstring).
    """
    if any(os.path.islink(path) for path in files):
        # Through the links, to the files they name: a rename would replace the link itself.
        through = {_through_link(Path(path)): data for path, data in files.items()}
        write_all_atomic(through, mode)
        return [Path(path) for path in files]
    for path in files:
        if os.path.isdir(path):
            import errno

            raise OSError(errno.EISDIR, "it is a folder; give a file name", str(path))
    special = [path for path in files if os.name == "posix" and _special(Path(path))]
    if special:
        for path in special:
            _write_into(Path(path), files[path])
        rest = {path: data for path, data in files.items() if path not in special}
        if rest:
            write_all_atomic(rest, mode)
        return [Path(path) for path in files]
    staged: list[_Staged] = []
    path = Path(".")
    chosen = (0o666 & ~_umask()) if mode is None else mode
    folders = list(dict.fromkeys(_folder(p) for p in files))
    try:
        if len(folders) == 1:
            # The whole write under the folder's lock: a second questc writing there waits,
            # and its recovery never takes this one's temporary files for a dead process's.
            with _locked(folders[0]):
                _recover(folders[0])
                for path, data in files.items():
                    staged.append(_stage(path, data, chosen))
                    _debug_kill("staged")
                _commit(staged, folders[0])
        else:
            for path, data in files.items():
                staged.append(_stage(path, data, chosen))
            for each in staged:
                _link(each)
                os.replace(each.name, each.target)  # type: ignore[arg-type]   # named just above
                each.name = None
    except BaseException as error:
        # Whatever went wrong (a full disk, an interrupt), no partial file may remain.
        for each in staged:
            each.discard()
        if isinstance(error, OSError):
            raise OSError(error.errno, error.strerror or str(error), str(path)) from error
        raise
    finally:
        for each in staged:
            if each.fd is not None:
                os.close(each.fd)
                each.fd = None
    for folder in folders:
        _sync_folder(folder)
    return [each.target for each in staged]


def _commit(staged: list[_Staged], folder: Path) -> None:
    """Name, journal, rename: the short step that makes a set visible (the folder is locked)."""
    for each in staged:
        _link(each)
    journal = None
    if len(staged) > 1:
        renames = [[os.path.basename(each.name or ""), each.target.name] for each in staged]
        fd, temp = tempfile.mkstemp(prefix=_JOURNAL, suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"renames": renames}, out)
            out.flush()
            os.fsync(out.fileno())
        journal = temp[: -len(".tmp")]
        os.replace(temp, journal)
        _sync_folder(folder)
    _debug_kill("journal")
    for number, each in enumerate(staged):
        if number:
            _debug_kill("rename")
        os.replace(each.name, each.target)  # type: ignore[arg-type]   # named by _link
        each.name = None
    if journal is not None:
        os.unlink(journal)


def _debug_kill(point: str) -> None:
    """Tests kill a real build at a chosen step (QUESTC_TEST_KILL_AT=staged: a file's bytes on
    disk; journal: the renames journalled; rename: between two renames) to prove the set
    survives; never set otherwise."""
    if os.environ.get("QUESTC_TEST_KILL_AT") == point:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def replace_folder_atomic(target: Path | str, files: dict[str, bytes]) -> Path:
    """Make the folder `target` hold exactly `files` (name -> bytes, names without folders), all or
    nothing; return it. The caller decides whether an old folder may be replaced at all.

    The files are written and fsynced into a hidden folder beside the target; then, under the
    parent folder's lock, a journal says that folder replaces the target, the old folder is
    renamed aside (a hidden name), the new one takes its place, the journal goes and the old
    folder is removed. A reader sees the old folder or the new one, never a mix. A process
    killed at any step leaves what `recover` (run by every write into the parent) finishes:
    the new folder put in place, the hidden folders removed. On any other failure the hidden
    folder is removed and the old folder is put back.
    """
    target = Path(target)
    parent = _folder(target)
    temp: Path | None = None
    aside: Path | None = None
    journal: str | None = None
    try:
        with _locked(parent):
            # Recovery first, then the new folder: recovery takes hidden folders of ours that no
            # journal names for a dead process's, which this one's would be until journalled.
            _recover(parent)
            temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.questc-", suffix=".tmp", dir=parent))
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
            _debug_kill("staged")
            fd, staged = tempfile.mkstemp(prefix=_JOURNAL, suffix=".tmp", dir=parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"renames": [[temp.name, target.name]]}, out)
                out.flush()
                os.fsync(out.fileno())
            journal = staged[: -len(".tmp")]
            os.replace(staged, journal)
            _sync_folder(parent)
            _debug_kill("journal")
            if target.exists() or target.is_symlink():
                aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.questc-", suffix=".tmp", dir=parent))
                os.rmdir(aside)  # a fresh hidden name for the old folder
                os.rename(target, aside)
                _debug_kill("rename")
            os.rename(temp, target)
            os.unlink(journal)
            journal = None
    except BaseException as error:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
        if aside is not None and aside.exists() and not target.exists():
            os.rename(aside, target)
            aside = None
        if journal is not None:
            try:
                os.unlink(journal)
            except OSError:
                pass
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
