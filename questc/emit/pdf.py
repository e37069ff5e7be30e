"""Compiled quests in; printable, tagged PDFs out: one quest's sheet (render_pdf) or a guide of
many (render_guide), typeset by the Typst engine.

Why Typst: it writes tagged PDF (headings, lists, tables, figures with alt text) and checks
PDF/UA-1 itself (a figure without alt text is refused), embeds the map as vector SVG with its
words as real text, embeds and subsets the bundled fonts, lays text over pages with headings
kept with what follows and blocks that never split, and gives the same bytes for the same
input. It compiles a sheet in tens of milliseconds. (reportlab, used before, has no tagging.)

The words and their order come from templates/sheet/sheet.j2 (guide.j2 for a guide's front
pages) over the data of questc.emit.sheet: block markup, one `@style text` per line, which
this module turns into Typst calls of templates/sheet/sheet.typ (the look: page, fonts,
headings, read-aloud boxes). Quest text is passed to Typst as string literals, never as
markup, so nothing a writer types can change the layout.

The map comes from questc.draw at the printed scale of its page (questc.draw.page: portrait
or landscape, whichever gives larger squares), as SVG, with its legend set as text beside
each symbol.

Dates: none in the file, unless SOURCE_DATE_EPOCH is set (then that moment), so the bytes
depend only on the input. `typst` is imported only inside the functions that compile.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from collections.abc import Callable, Iterable

from questc.errors import SheetTemplateError

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

_DIRECTIVE = re.compile(r"^@([A-Za-z_][A-Za-z0-9_]*)(?:[ \t]+(.*))?$")

# Block kinds the layout knows besides paragraph styles.
_CONTROL = {"map", "space", "pagebreak", "table", "row", "cell", "endtable", "toc", "keep", "endkeep"}

PAPERS = {"a4": "a4", "letter": "us-letter"}
KEEP_ROWS = 12      # a table of this many rows or fewer never splits over two pages


# ---- the block markup --------------------------------------------------------------


@dataclass
class Block:
    """One block of sheet markup: `kind` (a paragraph style name or a control word), its text,
    and for tables the style and rows (each row a list of (style, text) cells)."""

    kind: str
    text: str = ""
    style: str | None = None
    rows: list = field(default_factory=list)
    line: int = 0


def parse_blocks(markup: str) -> list[Block]:
    """Template output in; its blocks out, in order.

    A line starting with `@word` opens a block; any other non-blank line continues the
    text of the block above (so a template may wrap long sentences); blank lines
    are ignored. Tables gather their @row/@cell lines up to @endtable.
    """
    blocks: list[Block] = []
    table: Block | None = None
    current: Block | list[str] | None = None  # the block (or table cell list) a continuation line extends
    for number, raw in enumerate(markup.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        match = _DIRECTIVE.match(line)
        if match is None:
            if current is None:
                raise SheetTemplateError(f"line {number}: text before any @block: {line[:60]!r}")
            if isinstance(current, list):      # a table cell: [style, text]
                current[1] = f"{current[1]} {line}".strip()
            else:
                current.text = f"{current.text} {line}".strip()
            continue
        word, rest = match.group(1), (match.group(2) or "").strip()
        if table is not None and word not in ("row", "cell", "endtable"):
            raise SheetTemplateError(f"line {number}: @{word} inside @table {table.style} (close it with @endtable)")
        if word == "table":
            table = Block("table", style=rest or None, line=number)
            blocks.append(table)
            current = None
        elif word == "row":
            if table is None:
                raise SheetTemplateError(f"line {number}: @row outside a @table")
            table.rows.append([])
            current = None
        elif word == "cell":
            if table is None or not table.rows:
                raise SheetTemplateError(f"line {number}: @cell outside a @table @row")
            style, _, text = rest.partition(" ")
            if not style:
                raise SheetTemplateError(f"line {number}: @cell needs a style: @cell STYLE text")
            current = [style, text.strip()]
            table.rows[-1].append(current)
        elif word == "endtable":
            if table is None:
                raise SheetTemplateError(f"line {number}: @endtable without @table")
            table = None
            current = None
        else:
            block = Block(word, rest, line=number)
            blocks.append(block)
            current = block if word not in _CONTROL else None
    if table is not None:
        raise SheetTemplateError(f"line {table.line}: @table {table.style} is never closed with @endtable")
    return blocks



# ---- inline markup: the templates' <b>, <i>, <font color> over escaped text -> Typst code ------------


def tstr(text: str) -> str:
    """A Python string in; a Typst string literal out."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") \
        .replace("\t", "\\t") + '"'


class _Inline(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("b", "strong"):
            self.out.append("#strong[")
        elif tag in ("i", "em"):
            self.out.append("#emph[")
        elif tag == "font":
            colour = dict(attrs).get("color") or "#000000"
            if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
                raise SheetTemplateError(f"<font color={colour!r}>: write a colour as #rrggbb")
            self.out.append(f'#text(fill: rgb("{colour}"))[')
        else:
            raise SheetTemplateError(f"<{tag}> is not sheet markup (use <b>, <i> or <font color='#rrggbb'>)")
        self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            raise SheetTemplateError(f"</{tag}> closes nothing open")
        self.open.pop()
        self.out.append("]")

    def handle_data(self, data):
        if data:
            self.out.append("#" + tstr(data))


def inline(markup: str) -> str:
    """Template text (escaped quest text with <b>, <i>, <font color>) in; Typst markup out."""
    parser = _Inline()
    parser.feed(str(markup))
    parser.close()
    if parser.open:
        raise SheetTemplateError(f"<{parser.open[-1]}> is never closed")
    return "".join(parser.out)


# ---- blocks -> Typst ------------------------------------------------------------------------------

_HEADINGS = {"title": 1, "h1": 2, "h2": 3}
_STYLES = {"h3": "qs-entry-heading", "byline": "qs-byline", "body": "qs-body", "small": "qs-small", "read": "qs-read", "note": "qs-note",
           "guide_title": "qs-guide-title", "guide_subtitle": "qs-guide-subtitle", "toc_heading": "qs-toc-heading"}
_LISTS = {"bullet": "qs-bullets", "effect": "qs-effects"}


def to_typst(blocks: list[Block], *, map_page=None, outlined: bool = True) -> str:
    """Blocks in; Typst markup out. `map_page(heading)` makes the markup of the map's page (@map);
    `outlined` False keeps the title out of a guide's contents (an encounter: its quest's heading is)."""
    out: list[str] = []
    pending: tuple[str, list[str]] | None = None    # a run of list items being gathered
    keep_depth = 0

    def flush():
        nonlocal pending
        if pending is not None:
            kind, items = pending
            out.append(f"#{kind}(" + ", ".join(f"[{i}]" for i in items) + ")")
            pending = None

    for block in blocks:
        kind = block.kind
        if kind in _LISTS:
            if pending is not None and pending[0] != _LISTS[kind]:
                flush()
            if pending is None:
                pending = (_LISTS[kind], [])
            pending[1].append(inline(block.text))
            continue
        flush()
        if kind in _HEADINGS:
            shown = "" if outlined or kind != "title" else ", outlined: false, bookmarked: true"
            out.append(f"#heading(level: {_HEADINGS[kind]}{shown})[{inline(block.text)}]")
        elif kind in _STYLES:
            out.append(f"#{_STYLES[kind]}[{inline(block.text)}]")
        elif kind == "map":
            if map_page is None:
                raise SheetTemplateError(f"line {block.line}: @map, but there is no map here")
            out.append(map_page(block.text))
        elif kind == "space":
            try:
                out.append(f"#v({float(block.text or 6):g}pt)")
            except ValueError:
                raise SheetTemplateError(f"line {block.line}: @space takes a number of points") from None
        elif kind == "pagebreak":
            out.append("#pagebreak(weak: true)")
        elif kind == "toc":
            out.append("#outline(title: none, depth: 1, indent: 0pt)")
        elif kind == "keep":
            out.append("#qs-keep[")
            keep_depth += 1
        elif kind == "endkeep":
            if keep_depth == 0:
                raise SheetTemplateError(f"line {block.line}: @endkeep without @keep")
            out.append("]")
            keep_depth -= 1
        elif kind == "table":
            rows = [row for row in block.rows if row]
            if not rows:
                continue
            if block.style != "chart":
                raise SheetTemplateError(f"line {block.line}: no table style {block.style!r} (known: chart)")
            header = ", ".join(f"[{inline(text)}]" for _style, text in rows[0])
            cells = ", ".join(f"[{inline(text)}]" for row in rows[1:] for _style, text in row)
            table = f"qs-chart(({header},), {cells})" if cells else f"qs-chart(({header},))"
            # a short table stays whole on one page; a long one splits between rows, its header repeated
            out.append(f"#qs-keep({table})" if len(rows) <= KEEP_ROWS else f"#{table}")
        else:
            raise SheetTemplateError(f"line {block.line}: no block style @{kind} "
                                     f"(known: {', '.join(sorted(set(_HEADINGS) | set(_STYLES) | set(_LISTS)))})")
    flush()
    if keep_depth:
        raise SheetTemplateError("@keep is never closed with @endkeep")
    return "\n".join(out) + "\n"


# ---- the map's page ---------------------------------------------------------------------------------


@dataclass
class _MapMarkup:
    """The map of one quest on its page: the page's Typst markup and the legend that may follow it."""

    page: str
    after: str = ""


def _map_markup(quest: CompiledQuest, paper: str, heading: str) -> _MapMarkup:
    """A quest's map page (and, when the legend would cost the map too much, the legend after it)."""
    from questc.draw.legend import symbol_drawing
    from questc.draw.page import legend_spec, map_page
    from questc.draw.svg import to_svg
    from questc.draw.symbols import Palette, compass
    from questc.draw.items import Drawing, Layer

    page = map_page(quest, paper)
    md = page.map
    palette = Palette()
    tint = next((item.items[0].paint.fill for item in md.drawing.layer("floor").items), "#f1e8d4")
    drawing, overlays = _lift_shaped_text(md.drawing)
    svg = to_svg(drawing, standalone=False).decode("utf-8")
    image = (f"image(bytes({tstr(svg)}), format: \"svg\", width: {md.width:.2f}pt, "
             f"alt: {tstr(md.drawing.description)})")
    if overlays:
        image = f"box(width: {md.width:.2f}pt, {{ {image}\n{chr(10).join(overlays)} }})"
    picture = f"#align(center, {image})"
    spec = legend_spec()
    rose = to_svg(Drawing(34, 34, [Layer("compass", compass(palette, 17, 19, 17))], background=None),
                  standalone=False).decode("utf-8")
    columns = []
    count = len(md.legend)
    plan = page.legend
    # the rose and its gap take the legend's left: the columns share the rest (as planned)
    for col in range(plan.columns):
        entries = []
        for row in range(plan.rows):
            index = col * plan.rows + row
            if index >= count:
                break
            entry = md.legend[index]
            drawing = symbol_drawing(palette, entry.what, float(spec["icon"]), tint)
            symbol = to_svg(drawing, standalone=False).decode("utf-8")
            # at its own size (a door juts out of its square): never scaled, so its words stay 6 pt
            pad = (drawing.width - float(spec["icon"])) / 2
            entries.append(f"qs-legend-entry(place(dx: {-pad:.2f}pt, dy: {-pad:.2f}pt, image(bytes({tstr(symbol)}), "
                           f"format: \"svg\", width: {drawing.width:.2f}pt)), [#{tstr(entry.label)}])")
        columns.append("stack(spacing: 3.5pt, " + ", ".join(entries) + ")")
    widths = ", ".join(f"{w:.2f}pt" for w in plan.widths)
    legend = (f"#block(breakable: false, width: 100%, above: 8pt, grid(columns: (34pt, 1fr), column-gutter: 12pt, "
              f"pdf.artifact(image(bytes({tstr(rose)}), format: \"svg\", width: 34pt)), "
              f"[#qs-legend-heading[#{tstr(palette.word('legend'))}] #grid(columns: ({widths},), "
              f"column-gutter: {plan.gap:.2f}pt, {', '.join(columns)})]))")
    title = f"#heading(level: 2)[{inline(heading)}]" if heading else ""
    flipped = "true" if page.landscape else "false"
    body = f"#page(flipped: {flipped})[{title}\n{picture}\n{legend if plan.beside_map else ''}]"
    return _MapMarkup(body, "" if plan.beside_map else legend)


def _shaped(text: str) -> bool:
    """Does the text hold a combining mark (Thai vowels, Devanagari matras, Tibetan stacks...)?
    The PDF engine keeps text inside an SVG picture only when each glyph maps to its own
    characters, which a shaped cluster does not (PDF/UA then refuses the whole sheet)."""
    import unicodedata
    return any(unicodedata.category(c).startswith("M") for c in text)


def _lift_shaped_text(drawing):
    """A map Drawing in; the same without its shaped words (see _shaped), and those words as Typst
    text placed over the picture at the same points, out. Typst shapes them and maps every glyph
    to its characters, as it does the sheet's own text; they stay decoration of the map figure
    (artifacts), whose alt text describes it."""
    from dataclasses import replace as copy

    from questc.draw.items import Group, Text

    overlays: list[str] = []

    def keep(item, dx: float, dy: float):
        if isinstance(item, Text) and _shaped(item.text):
            overlays.append(_placed_text(item, dx, dy))
            return None
        if isinstance(item, Group):
            inner = [kept for kept in (keep(i, dx, dy) for i in item.items) if kept is not None]
            return copy(item, items=tuple(inner)) if len(inner) != len(item.items) else item
        return item

    layers = []
    for layer in drawing.layers:
        dx, dy = layer.offset
        items = [kept for kept in (keep(i, dx, dy) for i in layer.items) if kept is not None]
        layers.append(copy(layer, items=items))
    return (copy(drawing, layers=layers), overlays) if overlays else (drawing, [])


def _placed_text(item, dx: float, dy: float) -> str:
    """One map word as Typst markup placed with its baseline at its point, anchored as drawn."""
    align = {"start": "left", "middle": "center", "end": "right"}[item.anchor]
    weight = "\"bold\"" if item.weight == "bold" else "\"regular\""
    style = "\"italic\"" if item.weight == "italic" else "\"normal\""
    word = (f"text(size: {item.size:.2f}pt, fill: rgb({tstr(item.fill)}), weight: {weight}, style: {style}, "
            f"top-edge: \"baseline\", bottom-edge: \"baseline\", {tstr(item.text)})")
    if item.rotate:
        word = f"rotate(-{item.rotate}deg, reflow: false, {word})"
    x, y = item.x + dx, item.y + dy
    return (f"place(top + left, dx: {x:.2f}pt, dy: {y:.2f}pt, pdf.artifact(box(width: 0pt, "
            f"align({align}, box(width: auto, {word})))))")


# ---- the document ------------------------------------------------------------------------------------


def _prelude(*, paper: str, title: str, author: str | None, running: bool) -> str:
    from questc.paths import data_dir

    try:
        paper_name = PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"paper {paper!r}: one of {', '.join(PAPERS)}") from None
    from questc import __version__

    style = (data_dir("templates") / "sheet" / "sheet.typ").read_text(encoding="utf-8")
    return (f"#let paper = {tstr(paper_name)}\n#let doc-title = {tstr(title)}\n"
            f"#let made-by = {tstr('questc ' + __version__)}\n"
            f"#let doc-author = {tstr(author) if author else '()'}\n#let running = {'true' if running else 'false'}\n"
            + style + "\n")


def _date_markup() -> str:
    """SOURCE_DATE_EPOCH's moment as the document's date, else none (same bytes either way)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return ""
    try:
        seconds = int(epoch)
    except ValueError:
        return ""
    import datetime as dt

    when = dt.datetime.fromtimestamp(seconds, dt.timezone.utc)
    return (f"#set document(date: datetime(year: {when.year}, month: {when.month}, day: {when.day}, "
            f"hour: {when.hour}, minute: {when.minute}, second: {when.second}))\n")


def compile_typst(source: str) -> bytes:
    """Typst markup in; a tagged PDF/UA-1 document out (the engine refuses what PDF/UA forbids)."""
    import typst

    from questc.fonts import FONT_DIR

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    timestamp = int(epoch) if epoch and epoch.isdigit() else None
    try:
        # (the stub's one type variable for the input and the font folders cannot hold bytes and str)
        data = typst.compile(source.encode("utf-8"), font_paths=[str(FONT_DIR)],  # type: ignore[misc]
                             ignore_system_fonts=True, pdf_standards=["ua-1"], timestamp=timestamp)
    except typst.TypstError as error:
        raise SheetTemplateError(f"the PDF engine refused the sheet: {error.message}"
                                 + (f" ({'; '.join(error.hints)})" if error.hints else "")) from None
    assert isinstance(data, bytes)
    return data


def _sheet_markup(quest: CompiledQuest, paper: str, outlined: bool = True) -> str:
    """One compiled quest in; its sheet's Typst markup out (data -> sheet.j2 -> blocks -> Typst)."""
    from questc.emit.sheet import sheet_data, template

    data = sheet_data(quest)
    markup = template("sheet.j2").render(q=data)
    parts: list[_MapMarkup] = []

    def map_page(heading: str) -> str:
        made = _map_markup(quest, paper, heading)
        parts.append(made)
        return made.page + ("\n" + made.after if made.after else "")
    return to_typst(parse_blocks(markup), map_page=map_page, outlined=outlined)


_PAGEBREAK = "#pagebreak(weak: true)\n"


def _quest_heading(encounters: list[dict]) -> str:
    """The sheet data of a quest's encounters (in order) in; the markup of its heading in a guide out:
    the quest's title (the words its encounters' titles share), in the contents, and its encounters
    listed under it, each by its number and title."""
    from html import escape as escape_markup

    from questc.words import shared_title

    title = shared_title([e["title"] for e in encounters])
    items = [f"Encounter {e.get('encounter_label') or e.get('encounter') or '?'}: {e['title']}" for e in encounters]
    return (_PAGEBREAK + f"#heading(level: 1)[{inline(escape_markup(title))}]\n"
            + "#qs-bullets(" + ", ".join(f"[{inline(escape_markup(i))}]" for i in items) + ")\n")


def render_pdf(quest: CompiledQuest, paper: str = "a4") -> bytes:
    """A compiled quest in; its printable sheet out, as tagged PDF bytes (the same bytes every time).

    Raises ValueError if the paper is unknown.
    """
    model = quest.model
    source = _prelude(paper=paper, title=model.title, author=model.author, running=False) + _date_markup() \
        + _sheet_markup(quest, paper)
    return compile_typst(source)


def render_guide(quests: Iterable[CompiledQuest], progress: Callable[[int], None] | None = None,
                 title: str | None = None, author: str | None = None, paper: str = "a4") -> bytes:
    """Compiled quests in (any iterable, read once, one quest at a time); one PDF out: a
    title page (title, author, the quests), the contents with page numbers, then each quest's
    sheet from a new page, in the order given; running headers name the quest, bookmarks lead
    to each.

    `progress`, if given, is called with 1 after each quest is laid out. Raises ValueError if
    there is no quest at all.
    """
    sheets = []
    for quest in quests:
        sheets.append(guide_sheet(quest, paper))
        del quest   # let the quest go before the next is read (`quests` may check it then)
        if progress is not None:
            progress(1)
    return assemble_guide(sheets, title=title, author=author, paper=paper)


def guide_sheet(quest: CompiledQuest, paper: str = "a4") -> tuple[dict, str]:
    """One compiled quest in; what a guide keeps of it out: its sheet data (the title page lists
    the quests) and its sheet's markup, so the quest itself need not be kept."""
    from questc.emit.sheet import sheet_data

    # An encounter of a quest of several is listed in the contents under its quest's heading (assemble_guide).
    return sheet_data(quest), _PAGEBREAK + _sheet_markup(quest, paper,
                                                                        outlined=quest.model.part_of is None)


def assemble_guide(sheets, title: str | None = None, author: str | None = None, paper: str = "a4") -> bytes:
    """The guide_sheet()s of the quests, in order, in; the guide's PDF out (see render_guide)."""
    from questc.emit.sheet import template

    sheets = list(sheets)
    if not sheets:
        raise ValueError("a guide needs at least one quest")
    name = title or "Quest Guide"
    # A quest of several encounters is one quest on the title page.
    quests = [data for i, (data, _) in enumerate(sheets)
              if data.get("part_of") is None or i == 0 or sheets[i - 1][0].get("part_of") != data.get("part_of")]
    front = template("guide.j2").render(title=name, author=author, quests=quests)
    body = [to_typst(parse_blocks(front))]
    for index, (data, markup) in enumerate(sheets):
        quest = data.get("part_of")
        if quest is not None and (index == 0 or sheets[index - 1][0].get("part_of") != quest):
            run = [d for d, _ in sheets[index:]]
            run = run[:next((i for i, d in enumerate(run) if d.get("part_of") != quest), len(run))]
            body.append(_quest_heading(run))
            markup = markup.removeprefix(_PAGEBREAK)   # its first encounter starts on the heading's page
        body.append(markup)
    source = _prelude(paper=paper, title=name, author=author, running=True) + _date_markup() + "".join(body)
    return compile_typst(source)
