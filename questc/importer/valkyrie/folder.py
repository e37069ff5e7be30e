"""A Valkyrie quest (a folder, its quest.ini, or a `.valkyrie` package) in; its files read as Valkyrie's
loader reads them out, or ImportFailed saying where it would fail.

What stops the app stops the import, with the file and line: no quest.ini, no `[Quest]`, a quest
of another game (`type` not D2E), a format Valkyrie does not know, a data file listed but
missing, a line Valkyrie's INI reader throws on, two components of one name, a tile without a
side, a variable operation that is not `var,op,value`, a localization file that does not start
`.,<Language>`. A section Valkyrie does not know (its name starts with none of its component
types) is refused too: the app would silently ignore it, and a writer wants to hear of it.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from questc.errors import ImportFailed
from questc.valkyrie.ini import IniError, IniSection, decode, read_ini
from questc.valkyrie.localization import LocalizationError, read_localization

__all__ = ["Component", "ValkyrieFolder", "read_folder"]

# Valkyrie's component types, by the prefix of a section's name (QuestData.AddData).
TYPES = (
    "Tile",
    "Door",
    "Token",
    "UI",
    "Event",
    "Spawn",
    "MPlace",
    "QItem",
    "StartingItem",
    "Puzzle",
    "CustomMonster",
    "Activation",
)
FORMATS = (4, 21)  # the quest formats Valkyrie 3.2 loads (QuestData.Quest.minumumFormat, currentFormat)
MAX_FILE = 4_000_000  # bytes, as questc.limits.MAX_QUEST_BYTES for a quest
MAX_FILES = 200
MAX_PACKAGE = 50_000_000  # bytes unpacked, all the package's quest files together
_OPERATIONS = ("operations", "conditions")


@dataclass(frozen=True)
class Component:
    """One section of the quest: its type (`Tile`...), name, entries and where it is written."""

    type: str
    name: str
    file: str
    line: int
    entries: dict[str, str]
    lines: dict[str, int]

    def where(self, key: str | None = None) -> str:
        return f"{self.file}:{self.lines.get(key, self.line) if key else self.line}"


@dataclass
class ValkyrieFolder:
    """A Valkyrie quest as its loader has it: the header, the components in file order, the texts."""

    source: str  # what was given, for messages
    header: dict[str, str]
    files: list[str]
    components: dict[str, Component] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)  # the files read (the package, for a package)

    def text(self, key: str) -> str | None:
        return self.texts.get(key)


class _Files:
    """The quest's files by name: in a folder, or in a `.valkyrie` package (a zip)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip: zipfile.ZipFile | None = None
        self.prefix = ""
        self.paths: list[Path] = []
        if path.is_file() and path.name == "quest.ini":
            self.path = path.parent
        elif path.is_file():
            try:
                self.zip = zipfile.ZipFile(path)
            except (zipfile.BadZipFile, OSError) as error:
                raise ImportFailed(
                    f"{path} is not a Valkyrie quest: give its folder, its quest.ini or a .valkyrie package ({error})"
                ) from None
            names = [n for n in self.zip.namelist() if PurePosixPath(n).name == "quest.ini"]
            if names:
                self.prefix = str(PurePosixPath(min(names, key=len)).parent).lstrip(".")
                self.prefix = self.prefix + "/" if self.prefix else ""
            if sum(i.file_size for i in self.zip.infolist()) > MAX_PACKAGE:
                raise ImportFailed(f"{path} unpacks to more than {MAX_PACKAGE:,} bytes: not a quest questc imports")
        elif not path.is_dir():
            raise ImportFailed(f"no such folder or file: {path}")

    def read(self, name: str) -> bytes | None:
        """A file of the quest (a name relative to its folder) in; its bytes out, None when missing."""
        data = self._read(name)
        if data is not None:
            self.paths.append(self.path if self.zip is not None else self.path.joinpath(*PurePosixPath(name).parts))
        return data

    def _read(self, name: str) -> bytes | None:
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if not parts or any(p in ("..", "") for p in parts) or PurePosixPath(name).is_absolute():
            raise ImportFailed(f"{self.path}: the quest names the file `{name}`, outside its folder")
        if self.zip is not None:
            try:
                info = self.zip.getinfo(self.prefix + "/".join(parts))
            except KeyError:
                return None
            if info.file_size > MAX_FILE:
                raise ImportFailed(f"{self.path}: {name} is {info.file_size:,} bytes, over the limit of {MAX_FILE:,}")
            return self.zip.read(info)
        from questc.files import NotARegularFile, TooLarge, read_input

        target = self.path.joinpath(*parts)
        try:
            return read_input(target, MAX_FILE)
        except FileNotFoundError:
            return None
        except (NotARegularFile, TooLarge) as error:
            raise ImportFailed(str(error)) from None
        except OSError as error:
            raise ImportFailed(f"cannot read {target}: {error.strerror or error}") from None


def _ini(files: _Files, name: str, source: str):
    data = files.read(name)
    if data is None:
        raise ImportFailed(
            f"{source}: quest.ini lists `{name}`, which is not in the quest (Valkyrie stops "
            "loading a quest with a missing file)"
        )
    try:
        return read_ini(decode(data))
    except IniError as error:
        raise ImportFailed(f"{source}/{name}:{error.line}: {error}") from None


def _check_operations(component: Component) -> None:
    """Valkyrie throws on an operation or test that is not three parts `var,op,value`."""
    for key in _OPERATIONS:
        for part in component.entries.get(key, "").split():
            if len([p for p in part.split(",") if p]) != 3:
                raise ImportFailed(
                    f"{component.where(key)}: [{component.name}] `{key}` holds `{part}`, which is "
                    "not `variable,operator,value`: Valkyrie fails to load the quest"
                )
    for part in component.entries.get("vartests", "").split():
        kind, _, body = part.partition(":")
        if kind == "VarOperation" and len([p for p in body.split(",") if p]) != 3:
            raise ImportFailed(
                f"{component.where('vartests')}: [{component.name}] tests `{part}`, which is not "
                "`VarOperation:variable,operator,value`: Valkyrie fails to load the quest"
            )


def read_folder(path: Path | str) -> ValkyrieFolder:
    """A Valkyrie quest's folder (or its quest.ini, or a `.valkyrie` package) in; its files read out.
    Raises ImportFailed for what is not a Valkyrie second edition quest or would not load."""
    path = Path(path)
    files = _Files(path)
    source = str(path)
    quest_ini = files.read("quest.ini")
    if quest_ini is None:
        raise ImportFailed(f"{source} is not a Valkyrie quest: it has no quest.ini")
    try:
        main = read_ini(decode(quest_ini))
    except IniError as error:
        raise ImportFailed(f"{source}/quest.ini:{error.line}: {error}") from None
    quest = main.sections.get("Quest")
    if quest is None:
        raise ImportFailed(f"{source}/quest.ini has no [Quest] section: it is not a Valkyrie quest")
    kind = quest.entries.get("type", "")
    if kind != "D2E":
        game = {"MoM": "Mansions of Madness"}.get(kind, f"`type={kind}`" if kind else "no `type`")
        raise ImportFailed(
            f"{source}/quest.ini:{quest.lines.get('type', quest.line)}: a {game} quest; questc imports "
            "Descent second edition quests (`type=D2E`) only"
        )
    number = quest.entries.get("format", "")
    if not re.fullmatch(r"[0-9]+", number) or not FORMATS[0] <= int(number) <= FORMATS[1]:
        raise ImportFailed(
            f"{source}/quest.ini:{quest.lines.get('format', quest.line)}: format `{number}` is not "
            f"one Valkyrie loads ({FORMATS[0]} to {FORMATS[1]})"
        )
    listed = [name for name in main.sections.get("QuestData", IniSection("", 0, {}, {})).entries if name]
    if len(listed) > MAX_FILES:
        raise ImportFailed(f"{source}/quest.ini lists {len(listed)} files, more than a quest holds ({MAX_FILES})")
    out = ValkyrieFolder(source, dict(quest.entries), ["quest.ini", *listed])
    out.warnings += [f"quest.ini:{line}: {message}" for line, message in main.warnings]
    for name in out.files:
        read = main if name == "quest.ini" else _ini(files, name, source)
        out.warnings += [f"{name}:{line}: {message}" for line, message in read.warnings]
        for section in read.sections.values():
            if name == "quest.ini" and section.name in ("Quest", "QuestData", "QuestText"):
                continue
            found = next((t for t in TYPES if section.name.startswith(t)), None)
            if found is None:
                raise ImportFailed(
                    f"{source}/{name}:{section.line}: unknown section [{section.name}]: a Valkyrie "
                    f"component's name starts with its type ({', '.join(TYPES)}); Valkyrie ignores it"
                )
            component_type = "QItem" if found == "StartingItem" else found
            if section.name in out.components:
                first = out.components[section.name]
                raise ImportFailed(
                    f"{source}/{name}:{section.line}: a second component [{section.name}] (the first "
                    f"is at {first.where()}): Valkyrie stops loading the quest"
                )
            component = Component(
                component_type, section.name, name, section.line, dict(section.entries), dict(section.lines)
            )
            if (
                component_type == "Tile"
                and not component.entries.get("side")
                and not component.entries.get("customImage")
            ):
                raise ImportFailed(
                    f"{source}/{component.where()}: [{section.name}] has no `side`: Valkyrie stops loading the quest"
                )
            _check_operations(component)
            out.components[section.name] = component
    language = quest.entries.get("defaultlanguage", "English") or "English"
    by_language: dict[str, dict[str, str]] = {}
    for name in main.sections.get("QuestText", IniSection("", 0, {}, {})).entries:
        data = files.read(name)
        if data is None:
            out.warnings.append(f"quest.ini lists the texts `{name}`, which are not in the quest")
            continue
        try:
            texts = read_localization(decode(data))
        except LocalizationError as error:
            raise ImportFailed(f"{source}/{name}:1: {error}") from None
        if texts.unfinished:
            out.warnings.append(f"{name}: a quoted text runs to the end of the file")
        known = by_language.setdefault(texts.language.strip(), {})
        known.update({k: v for k, v in texts.texts.items() if k not in known})
    for chosen in (language, "English", *by_language):
        for key, value in by_language.get(chosen, {}).items():
            out.texts.setdefault(key, value)
    out.read = list(dict.fromkeys(files.paths))
    return out
