"""What a run is asked to do: owned sets, code selection, severities, strictness, packs."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from questc.diagnostics.core import Diagnostic, Severity
from questc.rules import descriptor


@dataclass(frozen=True)
class Options:
    """Settings from the configuration file and the command line (the command line wins).

    select/ignore hold code prefixes (`Q3`, `Q305`); `severity` maps a code or
    prefix to error, warning, info or off. `packs` are content pack paths, each
    relative to `packs_base`. `per_file_ignores` maps a glob (`quests/drafts/**`,
    or `*.quest` to match file names in any folder) to code prefixes; globs are
    relative to `per_file_base` (the configuration file's folder), else the current
    folder. `config_file` is the configuration read, if any; `config_diagnostics`
    are its problems worth a warning (unknown codes, Q602), located in that file.
    `paper` is a4 or letter; `guide_*` come from the configuration's `[guide]` table.
    """

    owned_sets: tuple[str, ...] | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    strict: bool = False
    verbose: bool = False
    packs: tuple[str, ...] = ()
    packs_base: Path | None = None
    root: Path | None = None
    per_file_base: Path | None = None
    config_file: Path | None = None
    config_diagnostics: tuple[Diagnostic, ...] = ()
    paper: str = "a4"                  # the printed sheet's and guide's paper: a4 or letter
    guide_title: str | None = None     # a guide's title, author and quest order ([guide] in the configuration)
    guide_author: str | None = None
    guide_order: tuple[str, ...] = ()

    def ignored_for(self, file: str) -> tuple[str, ...]:
        """The code prefixes `per_file_ignores` switches off for `file` (a path as diagnostics carry it)."""
        if not self.per_file_ignores:
            return ()
        relative = _relative(file, self.per_file_base)
        codes: list[str] = []
        for pattern, prefixes in self.per_file_ignores.items():
            if glob_matches(pattern, relative):
                codes += prefixes
        return tuple(codes)


def _relative(file: str, base: Path | None) -> str:
    path = Path(file)
    try:
        absolute = path if path.is_absolute() else Path.cwd() / path
        relative = os.path.relpath(absolute, base or Path.cwd())
    except ValueError:   # another drive on Windows
        return path.as_posix()
    return Path(relative).as_posix()


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern:
    """A glob as a regex over /-separated paths: `*` and `?` stay in one folder, `**/` spans folders."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_matches(pattern: str, path: str) -> bool:
    """Does the glob match the /-separated relative `path`? A pattern with no `/` matches the file name
    in any folder (as in .gitignore); a pattern naming a folder (`drafts/`) matches everything in it."""
    pattern = pattern.replace("\\", "/").removeprefix("./")
    if pattern.endswith("/"):
        pattern += "**"
    if "/" not in pattern:
        return _glob_regex(pattern).match(path.rsplit("/", 1)[-1]) is not None
    return _glob_regex(pattern).match(path) is not None


def _matches(code: str, prefixes) -> bool:
    return any(code.startswith(p.upper()) for p in prefixes)


def _longest(code: str, table: dict[str, str]) -> str | None:
    best = None
    for prefix in table:
        if code.startswith(prefix.upper()) and (best is None or len(prefix) > len(best)):
            best = prefix
    return table[best] if best is not None else None


def apply_policy(diagnostics: list[Diagnostic], options: Options, extra_ignores=()) -> list[Diagnostic]:
    """Select, ignore and re-grade diagnostics as configured.

    Syntax and reference codes (minimum severity error) can be neither switched off
    nor lowered: a quest with a broken name cannot be compiled whatever the settings.
    """
    kept = []
    per_file: dict[str, tuple[str, ...]] = {}
    for d in diagnostics:
        entry = descriptor(d.code)
        locked = entry is not None and entry.minimum is Severity.ERROR
        if not locked:
            if options.select and not _matches(d.code, options.select):
                continue
            if _matches(d.code, options.ignore) or _matches(d.code, extra_ignores):
                continue
            if d.span.file not in per_file:
                per_file[d.span.file] = options.ignored_for(d.span.file)
            if _matches(d.code, per_file[d.span.file]):
                continue
            level = _longest(d.code, options.severity)
            if level == "off":
                continue
            if level in ("error", "warning", "info"):
                d = d.with_severity(Severity(level))
        if d.severity is Severity.INFO and not options.verbose:
            continue
        kept.append(d)
    return kept
