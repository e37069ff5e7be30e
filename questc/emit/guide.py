"""Compiled quests in, one at a time; a quest guide out: a book typeset a quest at a time and assembled.

Typesetting a whole book at once held all of it in the PDF engine (200 quests took 1.8 GB);
a book is instead made in three passes, so its memory is one quest's however many there are:

1. `Book.add(quest)`: the quest's sheet is laid out (Typst markup, questc.emit.pdf) and spooled
   to a folder; the book keeps only what its front and back pages say of it (title, players,
   edition, the monsters and components its index lists).
2. `Book.write(order)`: in the book's order, each quest (the encounters of a second edition
   quest together, under one heading: a *part*) is typeset alone, its pages numbered where
   they fall in the book (with `two_sided`, every part starts on a right-hand page, a blank
   left-hand page before it when needed); then the index; then the front: the title page
   and the contents, which now know every page, numbered i, ii, ...
3. As each part is typeset it is written into the book's file (questc.emit.bookwriter: its
   pages, its tagged structure under the book's Document element, its bookmarks), and let
   go; the front comes last and goes before the numbered pages. The contents' and the
   index's links (written `questc:page/N`) lead to page N; the front's catalog, metadata and
   language are the book's; the front is numbered in roman numerals, the quests from 1.

Same input, same bytes: each part is typeset as a sheet is, and the book's file identifier
is the digest of its bytes.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

# What the index lists across the quests, from each sheet's components (questc.emit.sheet), in order.
INDEX_GROUPS = ("monsters", "pieces", "markers", "obstacles")


@dataclass
class Entry:
    """What the book keeps of one quest between its passes."""

    key: str  # the quest's file: how the caller names it in `write`'s order
    id: str
    title: str
    players: tuple[int, int]
    edition: str  # the edition's title: "First"
    part_of: str | None
    encounter: str | None  # its encounter as the guide numbers it: 1, 2a
    markup: Path  # the sheet's Typst markup, spooled
    terms: dict[str, list[str]] = field(default_factory=dict)  # index group -> the names it lists
    play: Path | None = None  # its print-and-play pages' markup, spooled (a guide --print-and-play)


@dataclass
class Part:
    """One quest of the book: its entries (a second edition quest's encounters together), its PDF,
    where it starts in the book and how many pages it has."""

    title: str
    entries: list[Entry]
    start: int = 0
    pages: int = 0
    encounter_pages: list[int] = field(default_factory=list)  # where each encounter starts (several)


class Book:
    """A guide being made (see the module docstring). `folder` holds the spooled parts; the book
    writes nothing else there and removes nothing it did not make."""

    def __init__(
        self,
        folder: Path | str,
        *,
        title: str | None = None,
        author: str | None = None,
        paper: str = "a4",
        two_sided: bool = False,
        date: str | None = None,
        print_and_play: bool = False,
        square_mm: float = 25.4,
    ):
        self.folder = Path(folder)
        self.title = title or "Quest Guide"
        self.author = author
        self.paper = paper
        self.two_sided = two_sided
        self.date = date
        self.print_and_play = print_and_play
        self.square_mm = square_mm
        self.entries: dict[str, Entry] = {}

    # pass 1 ----------------------------------------------------------------------------
    def add(self, quest: CompiledQuest, key: str | None = None) -> Entry:
        """Lay out one quest's sheet and spool it; the quest may be let go afterwards."""
        from questc.emit.pdf import sheet_markup
        from questc.emit.sheet import sheet_data

        model = quest.model
        key = key if key is not None else quest.path
        data = sheet_data(quest)
        path = self.folder / f"sheet-{len(self.entries):05d}.typ"
        path.write_text(sheet_markup(quest, self.paper, data), encoding="utf-8")
        text = sheet_data(quest, "text")
        entry = Entry(
            key,
            model.id,
            model.title,
            model.players,
            model.edition.title,
            model.part_of,
            model.encounter_label,
            path,
            _terms(text),
        )
        if self.print_and_play:
            from questc.emit.play import play_markup

            entry.play = self.folder / f"play-{len(self.entries):05d}.typ"
            entry.play.write_text(play_markup(quest, self.paper, self.square_mm), encoding="utf-8")
        self.entries[key] = entry
        return entry

    # pass 2 ----------------------------------------------------------------------------
    def write(self, order: Iterable[str] | None = None, progress: Callable[[int], None] | None = None) -> bytes:
        """The entries' keys in the book's order (None: the order they were added in); the book's PDF out.
        `progress` is called with 1 after each part is typeset. ValueError when there is no quest."""
        from questc.emit.bookwriter import BookWriter

        keys = list(order) if order is not None else list(self.entries)
        if not keys:
            raise ValueError("a guide needs at least one quest")
        parts = self.parts([self.entries[key] for key in keys])
        book = self.folder / "book.pdf"
        with book.open("wb") as file:
            writer = BookWriter(file)
            page = 1
            for part in parts:
                if self.two_sided and page % 2 == 0:
                    writer.blank()  # a blank left-hand page before it
                    page += 1
                part.start = page
                path = self.folder / "part.pdf"
                path.write_bytes(self._typeset_part(part))
                part.pages, part.encounter_pages = _pages(path, part.start, len(part.entries))
                writer.add(path)
                page += part.pages
                for entry in part.entries:  # its sheets are in the book now
                    entry.markup.unlink(missing_ok=True)
                    if entry.play is not None:  # its print-and-play pages after it
                        if self.two_sided and page % 2 == 0:
                            writer.blank()
                            page += 1
                        path.write_bytes(self._typeset_play(entry, page))
                        # to cut up: in a book printed on both sides, each page's back left blank
                        page += writer.add(path, nest=True, backs=self.two_sided)
                        entry.play.unlink(missing_ok=True)
                if progress is not None:
                    progress(1)
            if self.two_sided and page % 2 == 0:
                writer.blank()
                page += 1
            index = self.folder / "index.pdf"
            index.write_bytes(self._typeset_index(parts, page))
            writer.add(index)
            front = self.folder / "front.pdf"
            front.write_bytes(self._typeset_front(parts, page))
            if writer.add(front, front=True) % 2 and self.two_sided:
                writer.blank(front=True)  # the quests start on a right-hand page
            writer.finish(front)
        return book.read_bytes()

    def parts(self, entries: list[Entry]) -> list[Part]:
        """The entries in order in; the parts out: consecutive encounters of one quest (`part_of`) together."""
        from questc.words import shared_title

        parts: list[Part] = []
        for entry in entries:
            if entry.part_of and parts and parts[-1].entries[0].part_of == entry.part_of:
                parts[-1].entries.append(entry)
            else:
                parts.append(Part(entry.title, [entry]))
        for part in parts:
            if len(part.entries) > 1:
                part.title = shared_title([e.title for e in part.entries])
        return parts

    def _source(self, body: str, *, first_page: int, numbering: str = "1", title: str | None = None) -> str:
        from questc.emit.pdf import _date_markup, _prelude

        return (
            _prelude(
                paper=self.paper,
                title=title or self.title,
                author=self.author,
                running=True,
                two_sided=self.two_sided,
                first_page=first_page,
                numbering=numbering,
            )
            + _date_markup()
            + body
        )

    def _typeset_part(self, part: Part) -> bytes:
        from markupsafe import Markup

        from questc.emit.pdf import _render, compile_typst

        # the sheets are markup already (questc.emit.pdf made them): printed as they are
        sheets = [Markup(entry.markup.read_text(encoding="utf-8")) for entry in part.entries]
        body = _render("part.j2", part=_part_data(part), sheets=sheets)
        return compile_typst(self._source(body, first_page=part.start))

    def _typeset_play(self, entry: Entry, start: int) -> bytes:
        from questc.emit.pdf import compile_typst

        assert entry.play is not None
        return compile_typst(
            self._source(
                entry.play.read_text(encoding="utf-8"), first_page=start, title=f"{entry.title}: print and play"
            )
        )

    def _typeset_index(self, parts: list[Part], start: int) -> bytes:
        from questc.emit.pdf import _render, compile_typst

        return compile_typst(self._source(_render("index.j2", index=_index(parts)), first_page=start))

    def _typeset_front(self, parts: list[Part], index_start: int) -> bytes:
        from questc.emit.pdf import _render, compile_typst

        body = _render(
            "guide.j2",
            title=self.title,
            author=self.author,
            date=self.date,
            quests=[_part_data(part) for part in parts],
            count=len(parts),
            encounters=sum(len(p.entries) for p in parts),
            index_page=index_start,
            two_sided=self.two_sided,
        )
        return compile_typst(self._source(body, first_page=1, numbering="i"))


def _part_data(part: Part) -> dict:
    """What the front and the part's own heading say of a part: its title, page, players, edition
    and, for several encounters, each encounter's title and page."""
    low = min(e.players[0] for e in part.entries)
    high = max(e.players[1] for e in part.entries)
    pages = part.encounter_pages or [part.start] * len(part.entries)
    return {
        "title": part.title,
        "page": part.start,
        "players": {"min": low, "max": high},
        "edition": part.entries[0].edition,
        "encounters": [
            {"title": e.title, "encounter": e.encounter, "page": page} for e, page in zip(part.entries, pages)
        ]
        if len(part.entries) > 1
        else [],
    }


def _terms(text: dict) -> dict[str, list[str]]:
    """A quest's sheet data (plain words) in; the names the book's index lists for it, by group."""
    from questc.emit.sheet import COMPONENT_GROUPS

    out: dict[str, list[str]] = {group: [] for group in INDEX_GROUPS}
    for group in text["setup"]["components"]:
        if group["group"] not in out:
            continue
        for item in group["entries"]:
            name = _term(item)
            if name and name not in out[group["group"]]:
                out[group["group"]].append(name)
    assert set(INDEX_GROUPS) <= set(COMPONENT_GROUPS)
    return out


def _term(item: dict) -> str | None:
    """A component of the setup's list in; its index entry's name out (no counts: "skeleton")."""
    kind = item["kind"]
    if kind == "monster":
        return item["monster"]
    if kind == "named":
        return f"{item['named']['name']} (named {item['monster']})"
    if kind == "piece":
        return f"tile {item['tile']}" if item.get("tile") else item["name"]
    if kind == "obstacle":
        return item["obstacle"]
    if kind == "treasure":
        return f"{item['title']} marker"
    if kind in ("chest", "objective") and item.get("variant"):
        return f"{item['variant']} {kind}"
    if kind in ("relic", "lieutenant"):
        return f"{kind}: {item['name']}"
    if kind == "runekey":
        return f"{item['variant']} runekey"
    return kind.replace("_", " ") if kind != "glyph" else "glyph"


def _index(parts: list[Part]) -> list[dict]:
    """The index: for each group, each name with the quests (title, page) that use it, names sorted."""
    out = []
    for group in INDEX_GROUPS:
        names: dict[str, list[dict]] = {}
        for part in parts:
            for entry in part.entries:
                for name in entry.terms.get(group, ()):
                    places = names.setdefault(name, [])
                    if not places or places[-1]["page"] != part.start:
                        places.append({"title": part.title, "page": part.start})
        if names:
            out.append(
                {
                    "group": group,
                    "names": [{"name": name, "places": names[name]} for name in sorted(names, key=str.casefold)],
                }
            )
    return out


def _pages(path: Path, start: int, encounters: int) -> tuple[int, list[int]]:
    """A part's PDF in; its page count and, for a quest of several encounters, the book's page where
    each encounter starts (read from its bookmarks: the quest's, and under it each encounter's)."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        found: list[int] = []
        if encounters > 1:
            items = _outline(pdf, start)
            if items:
                found = [child[1] for child in items[0][2]][:encounters]
        return len(pdf.pages), found if len(found) == encounters else []


def _outline(pdf, offset: int) -> list:
    """A part's bookmarks as (title, page index in the book, children)."""
    pages = {page.obj.objgen: number for number, page in enumerate(pdf.pages)}

    def item(node) -> tuple:
        destination = node.get("/Dest")
        if destination is None and "/A" in node:
            destination = node.A.get("/D")
        page = pages.get(destination[0].objgen, 0) if destination is not None and len(destination) else 0
        children = []
        child = node.get("/First")
        while child is not None:
            children.append(item(child))
            child = child.get("/Next")
        return (str(node.get("/Title", "")), offset + page, children)

    root = pdf.Root.get("/Outlines")
    out = []
    child = root.get("/First") if root is not None else None
    while child is not None:
        out.append(item(child))
        child = child.get("/Next")
    return out


# ---- the library's entry point -----------------------------------------------------------------


def render_guide(
    quests: Iterable[CompiledQuest],
    progress: Callable[[int], None] | None = None,
    title: str | None = None,
    author: str | None = None,
    paper: str = "a4",
    two_sided: bool = False,
    date: str | None = None,
) -> bytes:
    """Compiled quests in (any iterable, read once, one quest at a time), in the book's order; the
    guide's PDF out (see the module docstring). `progress` is called with 1 after each quest is
    laid out. ValueError when there is no quest at all."""
    folder = Path(tempfile.mkdtemp(prefix="questc-guide-"))
    try:
        book = Book(folder, title=title, author=author, paper=paper, two_sided=two_sided, date=date)
        keys: list[Any] = []
        for number, quest in enumerate(quests):
            keys.append(book.add(quest, key=f"{number}:{quest.path}").key)
            del quest
            if progress is not None:
                progress(1)
        return book.write(keys)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
