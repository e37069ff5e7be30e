"""Configuration: `[tool.questc]` in pyproject.toml or questc.toml, merged with the command line."""
from __future__ import annotations

from questc.options import Options


def load_options(config_file=None, strict=None, select=(), ignore=(), verbose=False, expansions=None) -> Options:
    """Command-line values in (None: not given); the Options for the run out."""
    owned = tuple(s.strip() for s in expansions.split(",") if s.strip()) if expansions else None
    return Options(owned_sets=owned, select=tuple(select), ignore=tuple(ignore),
                   strict=bool(strict), verbose=verbose)
