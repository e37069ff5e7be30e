"""What a run is asked to do: owned sets, code selection, severities, strictness, packs, files left out."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic, Severity
from questc.records import record
from questc.rules import descriptor

if TYPE_CHECKING:  # the catalog is imported when a quest is checked, not by every command
    from questc.catalog.owned import Declared


# Folders (and files) never searched for quests unless named on the command line:
# ruff's default list (version control, virtual environments, caches, build output),
# which is what users of Python tools expect, plus questc's own `build` output.
DEFAULT_EXCLUDE = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)


@record
class Exclusion:
    """One `exclude` glob and the folder it is relative to (the configuration file's, or the
    current folder for the command line). A glob without `/` matches a file or folder name
    anywhere (`build`, `*_draft.quest`); one with `/` matches a path below `base`."""

    glob: str
    base: Path | None = None

    def matches(self, path: Path) -> bool:
        # A folder is matched as itself (`tests/fixtures/` and `tests/fixtures` alike), then pruned.
        pattern = self.glob.replace("\\", "/").rstrip("/") or "/"
        return glob_matches(pattern, _relative(str(path), self.base))

    def __str__(self) -> str:
        return self.glob


def exclusions(globs: Iterable[str], base: Path | None = None) -> tuple[Exclusion, ...]:
    return tuple(Exclusion(g, base) for g in globs)


@record
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

    `extend_select` adds codes to the selection and shows them even where a shorter
    `ignore` prefix would hide them. `exclude` (defaults replaced) and
    `extend_exclude` (added) say which files and folders a search for quests passes
    over; with `force_exclude` they apply to paths named directly too. `owned_counts` is
    the configuration's `[owned]` table (copies of sets, counts of components) the
    component checks count against. `origins` says where each setting came from
    (`--show-settings`); it takes no part in equality.
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
    paper: str = "a4"  # the printed sheet's and guide's paper: a4 or letter
    square_mm: float = 25.4  # a map square on a print-and-play map (questc.emit.play)
    guide_title: str | None = None  # a guide's title, author and quest order ([guide] in the configuration)
    guide_author: str | None = None
    guide_order: tuple[str, ...] = ()
    guide_date: str | None = None  # the date on a guide's title page (else SOURCE_DATE_EPOCH's, else none)
    guide_two_sided: bool = False  # a guide printed on both sides: quests start on right-hand pages
    extend_select: tuple[str, ...] = ()
    exclude: tuple[Exclusion, ...] = exclusions(DEFAULT_EXCLUDE)
    extend_exclude: tuple[Exclusion, ...] = ()
    force_exclude: bool = False
    owned_counts: Declared | None = None
    origins: dict[str, str] = field(default_factory=dict, compare=False)

    def excluded(self, path: Path) -> bool:
        """Is `path` (a file or a folder) passed over by `exclude` or `extend_exclude`?"""
        return any(rule.matches(path) for rule in (*self.exclude, *self.extend_exclude))

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
    except ValueError:  # another drive on Windows
        return path.as_posix()
    return Path(relative).as_posix()


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
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


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(p.upper()) for p in prefixes)


def _longest_prefix(code: str, prefixes: Iterable[str]) -> str | None:
    """The longest of `prefixes` that `code` starts with; None when none does."""
    best = None
    for prefix in prefixes:
        if code.startswith(prefix.upper()) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


def _longest(code: str, table: dict[str, str]) -> str | None:
    best = None
    for prefix in table:
        if code.startswith(prefix.upper()) and (best is None or len(prefix) > len(best)):
            best = prefix
    return table[best] if best is not None else None


def apply_policy(
    diagnostics: list[Diagnostic], options: Options, extra_ignores: Iterable[str] = ()
) -> list[Diagnostic]:
    """Select, ignore and re-grade diagnostics as configured.

    A code is shown when the selection is empty (everything) or `select` or
    `extend_select` covers it, unless an `ignore` prefix covers it that is at least as
    long as the longest `extend_select` prefix covering it. Per-file ignores and
    `severity = "off"` then still apply.

    Syntax and reference codes (minimum severity error) can be neither switched off
    nor lowered: a quest with a broken name cannot be compiled whatever the settings.
    An opt-in code (`Descriptor.opt_in`, a style suggestion) is shown only when `select`
    or `extend_select` names it, whole: selecting its family does not.
    """
    kept = []
    per_file: dict[str, tuple[str, ...]] = {}
    for d in diagnostics:
        entry = descriptor(d.code)
        locked = entry is not None and entry.minimum is Severity.ERROR
        if (
            entry is not None
            and entry.opt_in
            and d.code not in {c.upper() for c in (*options.select, *options.extend_select)}
        ):
            continue
        if not locked:
            chosen = _longest_prefix(d.code, options.extend_select)
            if options.select and not _matches(d.code, options.select) and chosen is None:
                continue
            ignored = _longest_prefix(d.code, (*options.ignore, *extra_ignores))
            if ignored is not None and (chosen is None or len(chosen) <= len(ignored)):
                continue  # `--extend-select Q406` beats `ignore = ["Q4"]`, not `ignore = ["Q406"]`
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
