"""Compiled quests in; printable, tagged PDFs out: one quest's sheet (render_pdf) or a guide of
many (render_guide), typeset by the Typst engine.

Why Typst: it writes tagged PDF (headings, lists, tables, figures with alt text) and checks
PDF/UA-1 itself (a figure without alt text is refused), embeds the map as vector SVG with its
words as real text, embeds and subsets the bundled fonts, lays text over pages with headings
kept with what follows and blocks that never split, and gives the same bytes for the same
input. It compiles a sheet in tens of milliseconds. (reportlab, used before, has no tagging.)

The words and their order come from templates/sheet/sheet.j2 (guide.j2 for a guide's front
pages) over the data of questc.emit.sheet: Typst markup calling the styles of
templates/sheet/sheet.typ (the look: page, fonts, headings, read-aloud boxes). Quest text is
escaped as it is printed (questc.emit.typst_markup), so nothing a writer types can change
the layout.

The map comes from questc.draw at the printed scale of its page (questc.draw.page: portrait
or landscape, whichever gives larger squares), as SVG, with its legend set as text beside
each symbol.

Dates: none in the file, unless SOURCE_DATE_EPOCH is set (then that moment), so the bytes
depend only on the input. `typst` is imported only inside the functions that compile.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

from questc.emit.typst_markup import markup as escaped
from questc.emit.typst_markup import string as tstr
from questc.errors import SheetTemplateError

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

PAPERS = {"a4": "a4", "letter": "us-letter"}


# ---- the map's page ---------------------------------------------------------------------------------


def map_unit(quest: CompiledQuest, paper: str, heading: str) -> str:
    """A quest's map, its heading and its legend as a call of sheet.typ's qs-map (which sets the unit
    after the text where it fits, else at the top of the next page), its data made here: the map's
    SVG at the scale questc.draw.page chose, the legend's symbols and words in the planned columns."""
    from questc.draw.items import Drawing, Layer
    from questc.draw.legend import symbol_drawing
    from questc.draw.page import legend_spec, map_page
    from questc.draw.svg import to_svg
    from questc.draw.symbols import Palette, compass

    page = map_page(quest, paper)
    md = page.map
    palette = Palette()
    tint = next((item.items[0].paint.fill for item in md.drawing.layer("floor").items), "#f1e8d4")
    drawing, overlays = _lift_shaped_text(md.drawing)
    svg = to_svg(drawing, standalone=False).decode("utf-8")
    image = f'image(bytes({tstr(svg)}), format: "svg", width: {md.width:.2f}pt, alt: {tstr(md.drawing.description)})'
    if overlays:
        image = f"box(width: {md.width:.2f}pt, {{ {image}\n{chr(10).join(overlays)} }})"
    spec = legend_spec()
    icon = float(spec["icon"])
    rose = to_svg(
        Drawing(34, 34, [Layer("compass", compass(palette, 17, 19, 17))], background=None), standalone=False
    ).decode("utf-8")
    entries = []
    for entry in md.legend:
        symbol = symbol_drawing(palette, entry.what, icon, tint)
        # at its own size (a door juts out of its square): never scaled, so its words stay 6 pt
        entries.append(
            f"({tstr(to_svg(symbol, standalone=False).decode('utf-8'))}, {symbol.width:.2f}pt, "
            f"[{escaped(entry.label)}])"
        )
    plan = page.legend
    widths = ", ".join(f"{w:.2f}pt" for w in plan.widths)
    return (
        f"#qs-map({tstr('qs-map:' + quest.model.id)}, [{escaped(heading)}], {image}, width: {page.width:.2f}pt, turned: "
        f"{'true' if page.turned else 'false'},\n  legend: qs-legend({tstr(rose)}, [{escaped(palette.word('legend'))}], "
        f"({widths},), {plan.gap:.2f}pt, {plan.rows}, {icon:g}pt, (\n    " + ",\n    ".join(entries) + ",)))\n"
    )


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
    weight = '"bold"' if item.weight == "bold" else '"regular"'
    style = '"italic"' if item.weight == "italic" else '"normal"'
    word = (
        f"text(size: {item.size:.2f}pt, fill: rgb({tstr(item.fill)}), weight: {weight}, style: {style}, "
        f'top-edge: "baseline", bottom-edge: "baseline", {tstr(item.text)})'
    )
    if item.rotate:
        word = f"rotate(-{item.rotate}deg, reflow: false, {word})"
    x, y = item.x + dx, item.y + dy
    return (
        f"place(top + left, dx: {x:.2f}pt, dy: {y:.2f}pt, pdf.artifact(box(width: 0pt, "
        f"align({align}, box(width: auto, {word})))))"
    )


# ---- the document ------------------------------------------------------------------------------------


def _prelude(
    *,
    paper: str,
    title: str,
    author: str | None,
    running: bool,
    two_sided: bool = False,
    first_page: int = 1,
    numbering: str = "1",
) -> str:
    from questc.paths import data_dir

    try:
        paper_name = PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"paper {paper!r}: one of {', '.join(PAPERS)}") from None
    from questc import __version__
    from questc.draw.page import styles

    style = (data_dir("templates") / "sheet" / "sheet.typ").read_text(encoding="utf-8")
    page = styles().get("page", {})
    return (
        f"#let paper = {tstr(paper_name)}\n#let doc-title = {tstr(title)}\n"
        f"#let made-by = {tstr('questc ' + __version__)}\n"
        f"#let doc-author = {tstr(author) if author else '()'}\n#let running = {'true' if running else 'false'}\n"
        f"#let margin-side = {float(page.get('margin_mm', 16)):g}mm\n"
        f"#let margin-bottom = {float(page.get('bottom_margin_mm', 18)):g}mm\n"
        f"#let binding = {float(page.get('binding_mm', 4)):g}mm\n"
        f"#let two-sided = {'true' if two_sided else 'false'}\n"
        f"#let page-numbering = {tstr(numbering)}\n#let first-page = {int(first_page)}\n" + style + "\n"
    )


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
    return (
        f"#set document(date: datetime(year: {when.year}, month: {when.month}, day: {when.day}, "
        f"hour: {when.hour}, minute: {when.minute}, second: {when.second}))\n"
    )


@lru_cache(maxsize=1)
def _engine():
    """The Typst compiler of this process and a lock to use it: the bundled fonts found and read
    once, not for every sheet (a fifth of a sheet's time), and its memory steady from one sheet
    to the next where a fresh compile each time grew it (a guide of many quests)."""
    import threading

    import typst

    from questc.fonts import FONT_DIR

    fonts = typst.Fonts(include_system_fonts=False, font_paths=[str(FONT_DIR)])
    return typst.Compiler(font_paths=fonts, ignore_system_fonts=True), threading.Lock()


def compile_typst(source: str) -> bytes:
    """Typst markup in; a tagged PDF/UA-1 document out (the engine refuses what PDF/UA forbids)."""
    import typst

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    timestamp = int(epoch) if epoch and epoch.isdigit() else None
    compiler, lock = _engine()
    try:
        with lock:  # one sheet at a time through one compiler (the preview serves from threads)
            data = compiler.compile(
                input=source.encode("utf-8"), format="pdf", pdf_standards=["ua-1"], timestamp=timestamp
            )
    except typst.TypstError as error:
        raise SheetTemplateError(
            f"the PDF engine refused the sheet: {error.message}"
            + (f" ({'; '.join(error.hints)})" if error.hints else "")
        ) from None
    assert isinstance(data, bytes)
    return data


def sheet_markup(quest: CompiledQuest, paper: str, data: dict | None = None) -> str:
    """One compiled quest (and its sheet data, when made already) in; its sheet's Typst markup out
    (data -> sheet.j2 -> Typst), without the page set-up (_prelude) a document starts with."""
    from markupsafe import Markup

    from questc.emit.sheet import sheet_data

    def the_map(heading: str) -> Markup:
        return Markup(map_unit(quest, paper, heading))

    return _render("sheet.j2", q=data if data is not None else sheet_data(quest), the_map=the_map)


def _render(name: str, **values) -> str:
    """A sheet template and its values in; its Typst markup out (a template that fails: SheetTemplateError)."""
    import jinja2

    from questc.emit.sheet import template

    try:
        return str(template(name).render(**values))
    except jinja2.TemplateError as error:
        line = getattr(error, "lineno", None)  # a syntax error's line; a failure while rendering has none
        where = f" (line {line})" if line else ""
        raise SheetTemplateError(f"templates/sheet/{name}{where}: {error}") from None


def render_pdf(quest: CompiledQuest, paper: str = "a4") -> bytes:
    """A compiled quest in; its printable sheet out, as tagged PDF bytes (the same bytes every time).

    Raises ValueError if the paper is unknown.
    """
    model = quest.model
    source = (
        _prelude(paper=paper, title=model.title, author=model.author, running=False)
        + _date_markup()
        + sheet_markup(quest, paper)
    )
    return compile_typst(source)
