"""Configuration: `[tool.questc]` in pyproject.toml or a questc.toml, merged with the command line, into Options.

The file is found by walking up from the current folder: in each folder a
`questc.toml` is taken first, then a `pyproject.toml` that has a `[tool.questc]`
table; the first folder with either wins (files further up are not merged).

    [tool.questc]
    expansions = ["base", "well_of_darkness"]   # the sets owned
    select = ["Q2", "Q3"]                       # only these codes or prefixes
    ignore = ["Q406"]                           # leave these out
    severity = { Q305 = "error", Q5 = "warning", Q507 = "off" }
    strict = true                               # warnings fail the run
    packs = ["packs/homebrew.yaml"]             # relative to this file
    per-file-ignores = { "quests/drafts/**" = ["Q3"] }
    paper = "letter"                            # sheets and guides: a4 (default) or letter
    guide = { title = "Our Campaign", author = "Us", order = ["first_quest", "second_quest"],
              date = "Spring 2026", two_sided = true }
    extend-select = ["Q507"]                    # added to the selection in force
    exclude = [".git", "build"]                 # replaces the default list of folders passed over
    extend-exclude = ["tests/fixtures"]         # added to it (relative to this file)
    force-exclude = true                        # also for paths named on the command line

    [tool.questc.owned]                         # the box owned, when it is not one of each set
    sets = { base = 2 }                         # copies of whole sets: every count doubled
    markers = { runekey = 6, door = 9 }         # counts of one component (also pieces, treasures,
    figures = { skeleton = { normal = 8 } }     # cards; figures by normal and master)

The command line wins: `--expansions` replaces `expansions`; `--select` replaces
the file's whole selection (its `select` and its `ignore`), so the codes asked for
are shown; `--extend-select` and `--ignore` add to the selection and the ignores in
force; `--strict/--no-strict` replace `strict`; `--exclude` replaces `exclude` and
`--extend-exclude` adds to `extend-exclude` (both relative to the current folder);
`--force-exclude` turns `force-exclude` on; `--paper` replaces `paper`; `questc guide
--title/--author` replace the guide's. A bad file (not TOML, an unknown key, a wrong type, a malformed code, a
level that does not exist) raises QuestcError: exit status 2 with the reason.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.errors import QuestcError
from questc.options import DEFAULT_EXCLUDE, Options, exclusions
from questc.paths import config_files
from questc.rules import descriptors
from questc.rules.suppressions.unknown_code import Q602

if TYPE_CHECKING:
    from questc.catalog.owned import Declared

KEYS = (
    "expansions",
    "select",
    "extend-select",
    "ignore",
    "severity",
    "strict",
    "packs",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "force-exclude",
    "paper",
    "guide",
    "owned",
)
PAPERS = ("a4", "letter")
GUIDE_KEYS = ("title", "author", "order", "date", "two_sided")
LEVELS = ("error", "warning", "info", "off")
_PREFIX = re.compile(r"Q[0-9]{0,3}")


class ConfigFile:
    """A configuration read: its path, its text and the questc table (already located within pyproject)."""

    def __init__(self, path: Path, text: str, table: dict[str, Any]) -> None:  # (TOML as read)
        self.path, self.text, self.table = path, text, table

    @property
    def folder(self) -> Path:
        return self.path.parent


def _toml() -> ModuleType:
    """The TOML parser, imported when a file is parsed: most runs find no configuration file,
    or a pyproject.toml without `questc` in it, and never need it (about 1.5 ms to import)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the same parser, as the `tomli` dependency
        import tomli as tomllib
    return tomllib


def _read(path: Path, explicit: bool) -> ConfigFile | None:
    """Read one candidate file; None for a pyproject.toml without `[tool.questc]` (unless named explicitly)."""
    from questc.files import NotARegularFile, TooLarge, read_input
    from questc.limits import MAX_CONFIG_BYTES

    try:
        text = read_input(path, MAX_CONFIG_BYTES).decode("utf-8")
    except NotARegularFile as error:
        raise QuestcError(f"cannot read the configuration {path}: it is {error.kind}") from None
    except TooLarge as error:
        raise QuestcError(
            f"cannot read the configuration {path}: it is {error.size:,} bytes "
            f"(a configuration file holds at most {MAX_CONFIG_BYTES:,})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise QuestcError(
            f"cannot read the configuration {path}: {getattr(error, 'strerror', None) or error}"
        ) from None
    is_pyproject = path.name == "pyproject.toml"
    if is_pyproject and not explicit and "questc" not in text:
        return None  # not ours: do not even ask it to be valid TOML
    tomllib = _toml()
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise QuestcError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise QuestcError(f"{path}: not valid TOML: arrays or tables nested too deeply") from None
    if is_pyproject:
        tool = document.get("tool", {})
        if not isinstance(tool, dict):
            raise QuestcError(f"{path}: `tool` must be a table: write the settings under [tool.questc]")
        table = tool.get("questc")
        if table is None:
            if explicit:
                raise QuestcError(f"{path} has no [tool.questc] table")
            return None
        if not isinstance(table, dict):
            raise QuestcError(f"{path}: `tool.questc` must be a table")
        # questc's keys written outside [tool.questc] (a `[guide]` table copied from a
        # questc.toml) were silently ignored: say where they belong.
        stray = [key for key in document if key in KEYS]
        if stray:
            key = stray[0]
            where = f"[tool.questc.{key}]" if isinstance(document[key], dict) else f"`{key}` under [tool.questc]"
            raise QuestcError(
                f"{path}: `{key}` is outside [tool.questc], where questc would never read it: write it as {where}"
            )
        return ConfigFile(path, text, table)
    if isinstance(document.get("tool"), dict) and "questc" in document["tool"]:
        raise QuestcError(
            f"{path}: a questc.toml holds the settings at its top (`paper = ...`, `[guide]`), "
            "not under [tool.questc] (that is pyproject.toml's form)"
        )
    return ConfigFile(path, text, document)


def find_config(start: Path | None = None) -> ConfigFile | None:
    """Walk up from `start` (default: the current folder) to the first questc.toml or pyproject.toml
    with `[tool.questc]`; None when there is none up to the root."""
    for path in config_files(start or Path.cwd()):
        found = _read(path, explicit=False)
        if found is not None:
            return found
    return None


def read_config(config_file: str | Path | None = None, start: Path | None = None) -> ConfigFile | None:
    """The file named (must exist), else the one found by walking up from `start`; None when there is none."""
    if config_file is None:
        return find_config(start)
    path = Path(config_file)
    if not path.is_file():
        if path.exists():
            raise QuestcError(f"the configuration {config_file} is not a regular file")
        raise QuestcError(f"no such configuration file: {config_file}")
    return _read(path.resolve(), explicit=True)


# ---- checking the table --------------------------------------------------------


class _Checker:
    """Validates a questc table into plain values; QuestcError for what makes the file unusable,
    Q602 warnings (located in the file) for codes that are well formed but match nothing."""

    def __init__(self, config: ConfigFile) -> None:
        self.config = config
        self.where = f"{config.path}" + (" [tool.questc]" if config.path.name == "pyproject.toml" else "")
        self.warnings: list[Diagnostic] = []

    def fail(self, message: str) -> NoReturn:
        raise QuestcError(f"{self.where}: {message}")

    def strings(self, key: str, value: object) -> tuple[str, ...]:
        """A list of strings, or one comma-separated string."""
        if isinstance(value, str):
            value = [part for part in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f'`{key}` must be a list of strings, like ["Q3", "Q406"]')
        return tuple(v.strip() for v in value if v.strip())

    def prefix(self, key: str, written: str, may_be_locked: bool) -> str:
        code = written.strip().upper()
        if not _PREFIX.fullmatch(code):
            self.fail(f"`{written}` in `{key}` is not a code or a code prefix (write `Q305`, or `Q3` for the family)")
        matched = [d for c, d in descriptors().items() if c.startswith(code)]
        if not matched:
            self.warnings.append(
                Q602.at(
                    self._locate(written),
                    code=written,
                    problem=f"in `{key}` matches no diagnostic code",
                    help_text="check the number; `questc explain all` lists the codes",
                )
            )
        elif not may_be_locked and all(d.minimum is Severity.ERROR for d in matched):
            self.fail(f"`{written}` in `{key}` names only syntax and reference codes, which always stay errors")
        return code

    def _locate(self, written: str) -> Span:
        """Where a code is written in the file, for the warning's place (the first mention)."""
        text, file = self.config.text, str(self.config.path)
        match = re.search(rf"(?<![A-Za-z0-9_]){re.escape(written)}(?![A-Za-z0-9_])", text)
        if match is None:
            return Span(file, 1, 1, 1, 1, 0, 0)
        start, end = match.span()
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        return Span(file, line, column, line, column + (end - start), start, end)

    def key_line(self, key: str) -> int | None:
        """The line a key of the questc table is written on (for `--show-settings`); None if not found."""
        return key_line(self.config, key)

    def check(self) -> dict[str, Any]:  # (keyword arguments of Options)
        table = self.config.table
        values: dict[str, Any] = {}
        for key in table:
            if key not in KEYS:
                import difflib  # only for a misspelt key

                close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
                hint = f" (did you mean `{close[0]}`?)" if close else f"; the keys are: {', '.join(KEYS)}"
                self.fail(f"unknown key `{key}`{hint}")
        if "expansions" in table:
            values["expansions"] = self.strings("expansions", table["expansions"])
        for key in ("select", "extend-select", "ignore"):
            if key in table:
                values[key] = tuple(
                    self.prefix(key, c, may_be_locked=key != "ignore") for c in self.strings(key, table[key])
                )
        if "severity" in table:
            raw = table["severity"]
            if not isinstance(raw, dict):
                self.fail('`severity` must be a table of code = level, like { Q305 = "error" }')
            levels = {}
            for code, level in raw.items():
                if not isinstance(level, str) or level.lower() not in LEVELS:
                    self.fail(f"the severity of `{code}` must be one of {', '.join(LEVELS)}, not {level!r}")
                levels[self.prefix("severity", code, may_be_locked=False)] = level.lower()
            values["severity"] = levels
        for key in ("strict", "force-exclude"):
            if key in table:
                if not isinstance(table[key], bool):
                    self.fail(f"`{key}` must be true or false")
                values[key] = table[key]
        for key in ("exclude", "extend-exclude"):
            if key in table:
                values[key] = self.strings(key, table[key])
        if "packs" in table:
            values["packs"] = self.strings("packs", table["packs"])
        if "per-file-ignores" in table:
            raw = table["per-file-ignores"]
            if not isinstance(raw, dict):
                self.fail('`per-file-ignores` must be a table of glob = codes, like { "drafts/**" = ["Q3"] }')
            values["per-file-ignores"] = {
                glob: tuple(
                    self.prefix("per-file-ignores", c, may_be_locked=False)
                    for c in self.strings(f"per-file-ignores.{glob}", codes)
                )
                for glob, codes in raw.items()
            }
        if "paper" in table:
            paper = table["paper"]
            if not isinstance(paper, str) or paper.lower() not in PAPERS:
                self.fail(f"`paper` must be one of {', '.join(PAPERS)}, not {paper!r}")
            values["paper"] = paper.lower()
        if "guide" in table:
            raw = table["guide"]
            if not isinstance(raw, dict):
                self.fail('`guide` must be a table, like { title = "Our campaign", order = ["first_quest", ...] }')
            for key in raw:
                if key not in GUIDE_KEYS:
                    self.fail(f"unknown key `guide.{key}`; the keys are: {', '.join(GUIDE_KEYS)}")
            for key in ("title", "author", "date"):
                if key in raw and not isinstance(raw[key], str):
                    self.fail(f"`guide.{key}` must be a string")
            if "two_sided" in raw and not isinstance(raw["two_sided"], bool):
                self.fail("`guide.two_sided` must be true or false")
            values["guide"] = {
                "title": raw.get("title"),
                "author": raw.get("author"),
                "date": raw.get("date"),
                "two_sided": raw.get("two_sided", False),
                "order": self.strings("guide.order", raw.get("order", [])),
            }
        if "owned" in table:
            values["owned"] = self.owned(table["owned"])
        return values

    def owned(self, raw: object) -> dict[str, dict[str, int | dict[str, int]]]:
        """The `[owned]` table: `sets` (copies of whole sets) and counts per component, checked for
        shape (the names are checked against the catalog in load_options)."""
        from questc.catalog.owned import CATEGORIES, RANKS

        example = "[owned.markers]\nrunekey = 6"
        if not isinstance(raw, dict):
            self.fail(f"`owned` must be a table, like\n{example}")
        out: dict[str, dict[str, int | dict[str, int]]] = {}
        for key, value in raw.items():
            if key not in ("sets", *CATEGORIES):
                import difflib

                close = difflib.get_close_matches(key, ("sets", *CATEGORIES), n=1)
                hint = (
                    " (the second edition's search, objective, villager and lieutenant tokens are `markers`)"
                    if key == "tokens"
                    else f" (did you mean `{close[0]}`?)"
                    if close
                    else ""
                )
                self.fail(f"unknown key `owned.{key}`{hint}; the keys are: sets, {', '.join(CATEGORIES)}")
            if not isinstance(value, dict):
                self.fail(f"`owned.{key}` must be a table of name = count, like {{ room = 12 }}")
            counts: dict[str, int | dict[str, int]] = {}
            for name, count in value.items():
                if key == "figures":
                    if not isinstance(count, dict) or not count or any(r not in RANKS for r in count):
                        self.fail(
                            f"`owned.figures.{name}` must be a table of normal and master figures, "
                            f"like {{ normal = 8, master = 3 }}"
                        )
                    counts[name] = {
                        rank: self.number(f"owned.figures.{name}.{rank}", n, 0) for rank, n in count.items()
                    }
                else:
                    counts[name] = self.number(f"owned.{key}.{name}", count, 1 if key == "sets" else 0)
            out[key] = counts
        return out

    def number(self, key: str, value: object, least: int) -> int:
        """A whole number of components (or copies of a set) from `least` to a million."""
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= 1_000_000:
            shown = repr(value) if not isinstance(value, str) else f'"{value}"'
            self.fail(f"`{key}` must be a whole number from {least} to 1000000, not {shown[:40]}")
        return value


_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\]]*?)\s*\]")


def key_line(config: ConfigFile, key: str) -> int | None:
    """The 1-based line where `key` of the questc table is set: `key = ...` in the table itself,
    or a `[tool.questc.key]` sub-table; None when it cannot be found (a dotted key, say)."""
    prefix = "tool.questc" if config.path.name == "pyproject.toml" else ""
    current = ""
    assignment = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    for number, line in enumerate(config.text.split("\n"), start=1):
        header = _TABLE_HEADER.match(line)
        if header:
            current = header.group(1).replace(" ", "").replace('"', "")
            table = f"{prefix}.{key}" if prefix else key
            if current == table or current.startswith(table + "."):  # [owned] or its first [owned.markers]
                return number
            continue
        if current == prefix and assignment.match(line):
            return number
    return None


def check_codes(key: str, codes: Iterable[str]) -> tuple[str, ...]:
    """Codes given directly (not from a file) for `key`: upper-cased; QuestcError for one that is not a code or prefix."""
    out = []
    for code in codes or ():
        code = code.strip().upper()
        if not _PREFIX.fullmatch(code):
            raise QuestcError(f"`{code}` (in {key}) is not a code or a code prefix: write Q305, or Q3 for the family")
        out.append(code)
    return tuple(out)


def load_options(
    config_file: str | Path | None = None,
    strict: bool | None = None,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    verbose: bool = False,
    expansions: str | None = None,
    start: Path | None = None,
    extend_select: Iterable[str] = (),
    exclude: Iterable[str] | None = None,
    extend_exclude: Iterable[str] = (),
    force_exclude: bool | None = None,
    paper: str | None = None,
) -> Options:
    """Command-line values in (None or empty: not given) plus the configuration file; the Options for the run out.

    `config_file` names the file to use; otherwise it is looked for from `start`
    (default: the current folder) upwards. Raises QuestcError for a bad file or value.
    `exclude` and `extend_exclude` from the command line are relative to the current
    folder; in the file, to the file's folder. The Options' `origins` say, for each
    setting, where its value came from.
    """
    config = read_config(config_file, start)
    values: dict[str, Any] = {}
    warnings: tuple[Diagnostic, ...] = ()
    origins: dict[str, str] = {}
    if config is not None:
        checker = _Checker(config)
        values = checker.check()
        warnings = tuple(checker.warnings)
        shown = _shown_path(config.path)
        for key in values:
            line = key_line(config, key)
            origins[key] = f"{shown}:{line}" if line is not None else shown
        how = "named by --config" if config_file is not None else "found from the current folder upwards"
        origins["config-file"] = how
    owned_counts = _declared(config, values, origins) if config is not None and "owned" in values else None
    cli_select = check_codes("select", select)
    cli_extend = check_codes("extend-select", extend_select)
    cli_ignore = check_codes("ignore", ignore)
    if expansions is not None:
        owned = tuple(s.strip() for s in expansions.split(",") if s.strip()) or None
        origins["expansions"] = "command line (--expansions)"
    else:
        owned = values.get("expansions") or None
    if cli_select:
        chosen_select, chosen_ignore = cli_select, cli_ignore
        origins["select"] = "command line (--select)"
        origins["ignore"] = "command line (--ignore)" if cli_ignore else "cleared by --select"
        if "extend-select" in values:
            origins["extend-select"] = "cleared by --select"
        file_extend: tuple[str, ...] = ()
    else:
        chosen_select, chosen_ignore = values.get("select", ()), values.get("ignore", ()) + cli_ignore
        if cli_ignore:
            origins["ignore"] = (
                f"{origins['ignore']} + command line (--ignore)" if "ignore" in origins else "command line (--ignore)"
            )
        file_extend = values.get("extend-select", ())
    if cli_extend:
        origins["extend-select"] = (
            f"{origins['extend-select']} + command line (--extend-select)"
            if file_extend
            else "command line (--extend-select)"
        )
    if strict is not None:
        origins["strict"] = "command line (--strict)" if strict else "command line (--no-strict)"
    if verbose:
        origins["verbose"] = "command line (--verbose)"
    base = config.folder if config is not None else None
    if exclude is not None:
        chosen_exclude = exclusions(exclude, Path.cwd())
        origins["exclude"] = "command line (--exclude)"
    elif "exclude" in values:
        chosen_exclude = exclusions(values["exclude"], base)
    else:
        chosen_exclude = exclusions(DEFAULT_EXCLUDE)
    chosen_extend_exclude = exclusions(values.get("extend-exclude", ()), base)
    if extend_exclude:
        chosen_extend_exclude += exclusions(extend_exclude, Path.cwd())
        origins["extend-exclude"] = (
            f"{origins['extend-exclude']} + command line (--extend-exclude)"
            if "extend-exclude" in origins
            else "command line (--extend-exclude)"
        )
    if force_exclude:
        origins["force-exclude"] = "command line (--force-exclude)"
    return Options(
        owned_sets=owned,
        select=chosen_select,
        ignore=chosen_ignore,
        extend_select=file_extend + cli_extend,
        severity=dict(values.get("severity", {})),
        per_file_ignores=dict(values.get("per-file-ignores", {})),
        strict=bool(strict) if strict is not None else bool(values.get("strict", False)),
        verbose=bool(verbose),
        packs=tuple(values.get("packs", ())),
        packs_base=config.folder if config is not None and values.get("packs") else None,
        per_file_base=config.folder if config is not None else None,
        config_file=config.path if config is not None else None,
        paper=(paper or values.get("paper") or "a4").lower(),
        guide_title=values.get("guide", {}).get("title"),
        guide_author=values.get("guide", {}).get("author"),
        guide_order=tuple(values.get("guide", {}).get("order", ())),
        guide_date=values.get("guide", {}).get("date"),
        guide_two_sided=bool(values.get("guide", {}).get("two_sided", False)),
        config_diagnostics=warnings,
        exclude=chosen_exclude,
        extend_exclude=chosen_extend_exclude,
        force_exclude=bool(force_exclude) or bool(values.get("force-exclude", False)),
        owned_counts=owned_counts,
        origins=origins,
    )


def _declared(config: ConfigFile, values: dict[str, Any], origins: dict[str, str]) -> Declared:
    """The `[owned]` table as a Declared, its names checked against the built-in catalog and the
    configuration's packs (QuestcError naming those nothing holds)."""
    from questc.catalog import load_catalog
    from questc.catalog.owned import Declared, unknown_names

    table = values["owned"]
    declared = Declared(
        copies=table.get("sets", {}),
        pieces=table.get("pieces", {}),
        markers=table.get("markers", {}),
        treasures=table.get("treasures", {}),
        figures=table.get("figures", {}),
        cards=table.get("cards", {}),
        origin=origins.get("owned"),
        config_file=_shown_path(config.path),
        pyproject=config.path.name == "pyproject.toml",
    )
    catalog, _ = load_catalog([(p, None, config.folder) for p in values.get("packs", ())])
    unknown, count = unknown_names(declared, catalog)
    if unknown:
        where = f"{config.path}" + (" [tool.questc]" if config.path.name == "pyproject.toml" else "")
        raise QuestcError(
            f"{where}: `owned` names what no set or pack holds: {'; '.join(unknown)}"
            + (f" and {count - len(unknown):,} more" if count > len(unknown) else "")
            + " (`questc catalog` lists the components; one from a pack a quest `use`s needs "
            "that pack in `packs` too)"
        )
    return declared


def _shown_path(path: Path) -> str:
    from questc.emit.report import display_path

    return display_path(str(path))


# ---- showing the settings -----------------------------------------------------


def _toml_value(value: Any) -> str:  # (a setting's value: a string, a list or a table of them)
    """A value as TOML writes it (strings in basic quotes, lists, inline tables)."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        parts = []
        for key, item in value.items():
            name = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)
            parts.append(f"{name} = {_toml_value(item)}")
        return "{ " + ", ".join(parts) + " }"
    return "[" + ", ".join(_toml_value(item) for item in value) + "]"


_DEFAULTS = {
    "expansions": "default: the sets each quest's `expansions` lists",
    "select": "default: every code",
    "extend-select": "default",
    "ignore": "default",
    "severity": "default: each code's own",
    "strict": "default",
    "verbose": "default",
    "packs": "default",
    "per-file-ignores": "default",
    "exclude": "default",
    "extend-exclude": "default",
    "force-exclude": "default",
    "paper": "default",
    "guide": "default: the template's title, no author, the order given, one-sided",
    "owned": "default: one of each set counted, holding what the catalog says",
}


def show_settings(options: Options) -> str:
    """The resolved settings of a run as TOML lines, each with where its value came from
    (`questc lint --show-settings`). Exclusion globs with a `/` are relative to a folder,
    which the comment names."""
    from questc import __version__

    origins = options.origins
    rows: list[tuple[str, str]] = []
    if options.config_file is not None:
        rows.append((f"config-file = {_toml_value(_shown_path(options.config_file))}", origins.get("config-file", "")))
    else:
        rows.append(("# config-file: none", "no questc.toml or pyproject.toml [tool.questc] found upwards"))
    values = {
        "expansions": list(options.owned_sets or ()),
        "select": list(options.select),
        "extend-select": list(options.extend_select),
        "ignore": list(options.ignore),
        "severity": dict(options.severity),
        "strict": options.strict,
        "verbose": options.verbose,
        "packs": list(options.packs),
        "per-file-ignores": {glob: list(codes) for glob, codes in options.per_file_ignores.items()},
        "exclude": [rule.glob for rule in options.exclude],
        "extend-exclude": [rule.glob for rule in options.extend_exclude],
        "force-exclude": options.force_exclude,
        "paper": options.paper,
        "guide": {
            k: v
            for k, v in (
                ("title", options.guide_title),
                ("author", options.guide_author),
                ("date", options.guide_date),
                ("two_sided", options.guide_two_sided),
                ("order", list(options.guide_order)),
            )
            if v
        },
        "owned": options.owned_counts.as_table() if options.owned_counts is not None else {},
    }
    for key, value in values.items():
        origin = origins.get(key, _DEFAULTS[key])
        if key in ("exclude", "extend-exclude"):
            rules = options.exclude if key == "exclude" else options.extend_exclude
            bases = sorted(
                {
                    str(rule.base)
                    for rule in rules
                    if rule.base is not None and "/" in rule.glob.replace("\\", "/").rstrip("/")
                }
            )
            if bases:
                origin += f" (paths relative to {' and '.join(bases)})"
        rows.append((f"{key} = {_toml_value(value)}", origin))
    width = min(max(len(text) for text, _ in rows), 60)
    lines = [f"# questc {__version__}: the settings in force, and where each comes from"]
    lines += [f"{text.ljust(width)}  # {origin}" for text, origin in rows]
    return "\n".join(lines) + "\n"
