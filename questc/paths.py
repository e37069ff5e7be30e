"""Where things are: questc's data folders (inside the installed package, or at the top of a
checkout), its cache, and a project's configuration files and root."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The folder `name` (grammar, schemas, cards, templates).

    A wheel carries the folders under questc/data/; a source checkout (or an
    editable install) keeps them beside the package.
    """
    for candidate in (_PACKAGE / "data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"questc data folder {name!r} is missing from this installation")


def style_file(name: str) -> dict:
    """A YAML file of the printed sheet's style under templates/sheet/ (legend.yaml: the map's
    colours and words; styles.yaml: the page) in; its mapping out. Read by the map drawing
    (questc.draw) and the sheet (questc.emit) alike."""
    import yaml

    path = data_dir("templates") / "sheet" / name
    with open(path, encoding="utf-8") as handle:
        loaded = yaml.safe_load(handle)
    if not isinstance(loaded, dict):
        raise ValueError(f"{path} must hold a mapping")
    return loaded


# The names a configuration file may have; in one folder, questc.toml comes first (docs/ci.md).
CONFIG_FILES = ("questc.toml", "pyproject.toml")


def config_files(start: Path) -> Iterator[Path]:
    """The files a project's configuration may be in, nearest first: in `start` and each folder
    above it, its questc.toml, then its pyproject.toml (those that exist). The one rule of
    discovery: questc.config reads the first that holds questc's settings (a pyproject.toml
    without [tool.questc] is passed over), project_root is the folder of the first, and the
    language server watches them all."""
    try:
        folder = start.resolve()
    except (RuntimeError, OSError):  # a folder on the way is a symbolic link loop: nothing above it
        return
    for candidate in (folder, *folder.parents):
        for name in CONFIG_FILES:
            path = candidate / name
            if path.is_file():
                yield path


def project_root(start: Path) -> Path:
    """The root of the project `start` is in: the nearest folder holding a questc.toml or a
    pyproject.toml, else `start` itself (content packs must lie inside it)."""
    found = next((path.parent for path in config_files(start)), None)
    if found is not None:
        return found
    try:
        return start.resolve()
    except (RuntimeError, OSError):
        return start.absolute()


def cache_dir() -> Path:
    """questc's cache folder: $XDG_CACHE_HOME/questc, else ~/.cache/questc (may not exist yet).

    Only ever holds things questc can rebuild; anything unreadable there is ignored.
    """
    import os

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "questc"


def write_cache(name: str, data: bytes, family: str | None = None, keep: int = 1) -> None:
    """Write `data` to cache_dir()/name atomically (temporary file, then rename); never fails.

    `family`: a glob of the entries this one is a kind of (`grammar-*`); of those, the `keep`
    newest stay (this one among them) and the older are removed, so entries for other
    versions (another install of questc on the same account) live side by side, bounded.
    """
    import os

    folder = cache_dir()
    temporary = folder / f".{name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, folder / name)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass
        return
    if family:
        _keep_newest(folder, family, name, keep)


def _keep_newest(folder: Path, family: str, name: str, keep: int) -> None:
    """Remove the entries of `family` in `folder` but `name` and the keep - 1 newest others."""
    aged = []
    for entry in folder.glob(family):
        try:
            if entry.name != name:
                aged.append((entry.stat().st_mtime_ns, entry.name, entry))
        except OSError:
            pass  # gone already: another questc tidied at the same time
    for _mtime, _name, entry in sorted(aged, reverse=True)[max(0, keep - 1) :]:
        try:
            entry.unlink(missing_ok=True)
        except OSError:
            pass
