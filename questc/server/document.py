"""One open quest: its text as the editor has it, and the last check of that text.

The server keeps, per document, the text and version the client sent last, the
syntax index of that text (parsed on demand: a few milliseconds), and the result of
the last full check (questc.api.check_source on the unsaved text, with the
configuration found from the document's folder as `questc lint` finds it from the
current one). Features that need the resolved quest or its board (cell hover) use
the last check that got that far, so a line being typed does not blank them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from questc.api import Options, QuestcError, QuestResult, check_source, config_files

if TYPE_CHECKING:
    from questc.api import Edition, IncrementalParser
from questc.server.index import QuestIndex, build_index
from questc.server.text import BOM, LineIndex


def uri_path(uri: str) -> Path | None:
    """A `file:` URI in, its path out; None for other schemes (an unsaved buffer)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///C:/... on Windows
        path = path[1:]
    return Path(path)


@dataclass
class Checked:
    """A check of one version of the text."""

    version: int
    text: str
    result: QuestResult
    lines: LineIndex
    seconds: float
    config_problem: str | None = None
    # Where the time went (the server's trace, `$/logTrace`): the parse, whether it re-parsed only
    # the statements edited, and the checking thread's CPU time for the whole check.
    parse_seconds: float = 0.0
    parsed_in_part: bool = False
    cpu_seconds: float = 0.0


@dataclass
class QuestDocument:
    """A quest open in the editor: its text, version and last checks."""

    uri: str
    text: str
    version: int
    encoding: str = "utf-16"
    checked: Checked | None = None  # the last check (of any version)
    resolved: Checked | None = None  # the last check that made a model
    closed: bool = False
    again: bool = False  # check again once the running check ends (a pack changed)
    changed_at: float = 0.0  # perf_counter when the text last changed (the trace)
    _index: tuple[int, str, QuestIndex, LineIndex] | None = field(default=None, repr=False)
    # The checks' parser, used by the checking thread alone: it re-parses only the statements
    # an edit touched (questc.syntax.incremental); `questc lint` parses whole files.
    _parser: IncrementalParser | None = field(default=None, repr=False)

    @property
    def path(self) -> Path | None:
        return uri_path(self.uri)

    @property
    def file(self) -> str:
        """The name diagnostics carry: the file's path, or the URI of an unsaved buffer."""
        path = self.path
        return str(path) if path is not None else self.uri

    def lines(self) -> LineIndex:
        return self.current()[1]

    def index(self) -> QuestIndex:
        return self.current()[0]

    def current(self) -> tuple[QuestIndex, LineIndex]:
        """The syntax index and line index of the text as it is now (parsed again only after an edit)."""
        cached = self._index
        if cached is None or cached[0] != self.version or cached[1] is not self.text:
            from questc.api import parse_source

            checked = self.checked
            if checked is not None and checked.version == self.version and checked.text is self.text:
                tree = checked.result.tree
            else:
                tree = parse_source(_quest_text(self.text), self.file).tree
            cached = (self.version, self.text, build_index(tree), LineIndex(self.text, self.encoding))
            self._index = cached
        return cached[2], cached[3]


def _quest_text(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


class OptionsCache:
    """Configuration per folder, read again when the configuration file found there changes."""

    def __init__(self):
        self._cache: dict[Path, tuple[tuple, Options, str | None]] = {}

    def for_path(self, path: Path | None) -> tuple[Options, str | None]:
        """The options for a quest at `path` (None: an unsaved buffer, checked with the defaults),
        and the reason the configuration could not be used, if it could not."""
        if path is None:
            return Options(), None
        folder = path.parent
        stamp = _config_stamp(folder)
        cached = self._cache.get(folder)
        if cached is not None and cached[0] == stamp:
            return cached[1], cached[2]
        from questc.api import load_options

        try:
            options, problem = load_options(start=folder), None
        except QuestcError as error:  # a broken configuration: say so, check with the defaults
            options, problem = Options(), str(error)
        self._cache[folder] = (stamp, options, problem)
        return options, problem


def _config_stamp(folder: Path) -> tuple:
    """The size and time of every configuration file from `folder` up (questc.api.config_files):
    a change anywhere re-reads."""
    stamp = []
    for path in config_files(folder):
        try:
            info = path.stat()
        except OSError:  # gone since it was found
            continue
        stamp.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(stamp)


def check(document: QuestDocument, text: str, version: int, options_cache: OptionsCache) -> Checked:
    """Check one version of a document's text as `questc lint` would check the saved file."""
    started, cpu = time.perf_counter(), time.thread_time()
    options, problem = options_cache.for_path(document.path)
    parser = document._parser
    if parser is None or parser.file != document.file:
        from questc.api import IncrementalParser

        parser = document._parser = IncrementalParser(document.file)
    source = _quest_text(text)
    in_part = parser.partial_parses
    parsed = parser.parse(source)
    parse_seconds = time.perf_counter() - started
    result = check_source(source, document.file, options, parsed=parsed)
    return Checked(
        version,
        text,
        result,
        LineIndex(text, document.encoding),
        time.perf_counter() - started,
        problem,
        parse_seconds,
        parser.partial_parses > in_part,
        time.thread_time() - cpu,
    )


def edition_of(document: QuestDocument) -> Edition:
    """The rule set the header names (the default one when it names none, or one questc does not know)."""
    from questc.api import edition, find_edition
    from questc.api import nodes as n

    tree = document.index().tree
    header = tree.header if tree is not None else None
    written = header.get("edition") if header is not None else None
    name = written.value.value if written is not None and isinstance(written.value, n.Name) else None
    return (find_edition(name) if name is not None else None) or edition()
