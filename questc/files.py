"""Reading the files a user names (quests, content packs, configuration, deck plans):
regular files only, and never more than a stated size, checked before the bytes are read.

A FIFO named as a pack would block the run for ever, a 3 GiB sparse file would be read
whole before any size check; `read_input` opens without blocking, asks the open file
what it is and how large, and reads at most `limit` bytes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "TooLarge", "read_input"]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotARegularFile(OSError):
    """The path names a folder, a pipe, a socket or a device: `kind` says which."""

    def __init__(self, path: Path | str, kind: str):
        super().__init__(f"{path} is {kind}, not a regular file")
        self.kind = kind


class TooLarge(OSError):
    """The file holds more than the limit: `size` (bytes, as far as known) and `limit`."""

    def __init__(self, path: Path | str, size: int, limit: int):
        super().__init__(f"{path} is {size:,} bytes, over the limit of {limit:,}")
        self.size, self.limit = size, limit


def read_input(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), at most `limit` of them.

    Raises NotARegularFile, TooLarge (before reading when the size is known, and also
    for a file that grows while it is read) or the OSError of opening or reading.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)  # non-blocking: opening a FIFO with no writer would wait for ever
    try:
        info = os.fstat(fd)  # the file opened, not a name that may have changed since
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a plain file")
            raise NotARegularFile(path, kind)
        if info.st_size > limit:
            raise TooLarge(path, info.st_size, limit)
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise TooLarge(path, max(got, info.st_size), limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
