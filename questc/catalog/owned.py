"""The box a writer owns: the sets counted (with the copies of each) and the counts declared in the
configuration's `[owned]` table in; how many of each component they hold, and how to say so, out.

The component checks (Q402-Q405, Q410) count against this. A count declared wins over
what the sets hold; otherwise each set's count, times the copies of it owned, is summed
(Catalog.*_owned). The catalog marks counts the rule books do not state `source:
estimate`: a message built on one says "an estimated N" and how to declare the real
number; one built on a declaration says where it was declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from typing import TYPE_CHECKING

from questc.catalog.model import Count
from questc.records import record

if TYPE_CHECKING:
    from questc.catalog.model import Catalog

# The `[owned]` table's sub-tables, in the order the docs give them. `sets` holds copies
# of whole sets; the others, counts of one component each (`figures` by normal and master).
CATEGORIES = ("pieces", "markers", "treasures", "figures", "cards")
RANKS = ("normal", "master")


@record
class Declared:
    """The configuration's `[owned]` table, checked (questc.config).

    `copies`: set -> how many of it (1 when not named); the others: component -> count,
    `figures` as monster -> {"normal": n, "master": n}. `origin` is where the table is
    written (`questc.toml:12`), for messages; `config_file` the configuration's path as
    shown (None: there is none), and `pyproject` whether it is a pyproject.toml, for the
    hint that says where to declare a count.
    """

    copies: Mapping[str, int] = field(default_factory=dict)
    pieces: Mapping[str, int] = field(default_factory=dict)
    markers: Mapping[str, int] = field(default_factory=dict)
    treasures: Mapping[str, int] = field(default_factory=dict)
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    cards: Mapping[str, int] = field(default_factory=dict)
    origin: str | None = None
    config_file: str | None = None
    pyproject: bool = False

    def count(self, category: str, name: str, rank: str | None = None) -> int | None:
        """The count declared for one component; None when none is."""
        if category == "figures":
            return self.figures.get(name, {}).get(rank or "normal")
        table: Mapping[str, int] = getattr(self, category)
        return table.get(name)

    def table(self, category: str) -> str:
        """The TOML table a count of `category` is written under, in this configuration's form."""
        return f"[tool.questc.owned.{category}]" if self.pyproject else f"[owned.{category}]"

    def as_table(self) -> dict:
        """The table as the configuration would write it (for --show-settings)."""
        out: dict = {}
        if self.copies:
            out["sets"] = dict(self.copies)
        for category in CATEGORIES:
            values = getattr(self, category)
            if values:
                out[category] = {
                    name: dict(value) if isinstance(value, Mapping) else value for name, value in values.items()
                }
        return out


NOTHING_DECLARED = Declared()


@record
class Held:
    """How many of one component the box holds (`count`), with what a message says of it."""

    count: Count
    sets: str  # the sets counted, as a message names them: "base, 2 x well_of_darkness"
    origin: str | None  # where a declared count was declared
    declare: str  # how to declare this component's count: "`runekey = N` under [owned.markers] in ..."

    @property
    def holding(self) -> str:
        """`the sets owned (base) hold 6`, `... hold an estimated 6`, `you own 8 (declared in questc.toml:4)`."""
        n = self.count.count
        if self.count.source == "declared":
            return f"you own {n} (declared in {self.origin})" if self.origin else f"you own {n} (declared)"
        if self.count.source == "estimate":
            return f"the sets owned ({self.sets}) hold an estimated {n}"
        return f"the sets owned ({self.sets}) hold {n}"

    @property
    def hint(self) -> str:
        """For an estimate, how to declare the real count (to follow a help text); else empty."""
        if self.count.source != "estimate":
            return ""
        return (
            f"; {self.count.count} is questc's estimate (the rule books do not say): if your box holds "
            f"another number, declare it as {self.declare}"
        )

    def share(self, parts: int) -> Held:
        """One of `parts` equal shares (the rune doors of one colour); `count` must divide evenly."""
        assert self.count.count is not None
        return replace(self, count=Count(self.count.count // parts, self.count.source))


class Box:
    """The components one quest is counted against: its catalog, the sets counted and what is declared."""

    def __init__(self, catalog: Catalog, sets: tuple[str, ...], declared: Declared | None = None):
        self.catalog, self.sets, self.declared = catalog, sets, declared or NOTHING_DECLARED

    @property
    def sets_text(self) -> str:
        """The sets counted as messages name them, with their copies: `2 x base, well_of_darkness`."""
        copies = self.declared.copies
        return ", ".join(f"{copies[s]} x {s}" if copies.get(s, 1) != 1 else s for s in self.sets)

    def held(self, category: str, name: str, rank: str | None = None) -> Held:
        """How many of one component (a piece kind, a marker, a treasure, a monster's normal or master
        figures, an overlord card) the box holds."""
        declared = self.declared.count(category, name, rank)
        if declared is not None:
            count = Count(declared, "declared")
        else:
            catalog, copies = self.catalog, self.declared.copies
            if category == "pieces":
                count = catalog.pieces_owned(name, self.sets, copies)
            elif category == "markers":
                count = catalog.markers_owned(name, self.sets, copies)
            elif category == "treasures":
                count = catalog.treasures_owned(name, self.sets, copies)
            elif category == "figures":
                count = catalog.figures_owned(name, rank or "normal", self.sets, copies)
            elif category == "cards":
                count = catalog.copies_owned(name, self.sets, copies)
            else:
                raise ValueError(f"no such component category: {category!r}")
        return Held(count, self.sets_text, self.declared.origin, self._declare(category, name, rank))

    def _declare(self, category: str, name: str, rank: str | None) -> str:
        key = name if name.replace("_", "").isalnum() else f'"{name}"'
        line = f"`{key} = {{ {rank} = N }}`" if category == "figures" else f"`{key} = N`"
        where = self.declared.config_file
        if where is None:
            return (
                f"{line} under [owned.{category}] in a questc.toml (or [tool.questc.owned.{category}] in "
                "pyproject.toml)"
            )
        return f"{line} under {self.declared.table(category)} in {where}"


def unknown_names(declared: Declared, catalog: Catalog, shown: int = 5) -> tuple[list[str], int]:
    """The names in `declared` the catalog does not know: the first `shown` of them, each as
    `pieces.rooom (did you mean room?)`, and how many there are in all."""
    import difflib

    known = {
        "sets": set(catalog.sets),
        "pieces": {p.kind for p in catalog.pieces.values()},
        "markers": set(catalog.markers),
        "treasures": set(catalog.treasures),
        "figures": set(catalog.monsters),
        "cards": set(catalog.cards),
    }
    found: list[str] = []
    count = 0
    for category, names in (("sets", declared.copies), *((c, getattr(declared, c)) for c in CATEGORIES)):
        for name in names:
            if name not in known[category]:
                count += 1
                if len(found) < shown:  # a "did you mean" for those shown only: a table may hold thousands
                    close = difflib.get_close_matches(name, sorted(known[category]), n=1)
                    found.append(f"`{category}.{name}`" + (f" (did you mean `{close[0]}`?)" if close else ""))
    return found, count
