"""Where questc's data folders are: inside the installed package, or at the top of a checkout."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """The folder `name` (grammar, schemas, cards, templates).

    A wheel carries the folders under questc/data/; a source checkout (or an
    editable install) keeps them beside the package.
    """
    for candidate in (_PACKAGE / "data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"questc data folder {name!r} is missing from this installation")
