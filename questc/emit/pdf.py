"""Compiled QuestResults in; printable PDFs out: one quest's sheet (render_pdf) or a guide of many (render_guide).

The words and their order come from templates/sheet/sheet.j2 (and guide.j2 for a
guide's front pages), rendered over the data of questc.emit.sheet; the page and
paragraph styles from templates/sheet/styles.yaml. A template yields simple block
markup (one `@style text` per line, described at the top of sheet.j2) that this
module turns into reportlab platypus flowables, so text is real, selectable vector
text that flows from page to page and never runs off one.

The map comes from questc.emit.png without the legend the PNG draws into its
picture: at a page's width those words would print far too small. The legend is
set here instead, under the map, as text in the bundled font (styles.yaml
`legend`), each entry beside the map's own symbol drawn small, in columns.

reportlab is the renderer: it lays out flowing text over pages, embeds (subsetted)
TrueType fonts, and with invariant=1 writes the same bytes for the same input (no
dates, fixed document id). It is imported only inside this module's functions.
"""
from __future__ import annotations

import io
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from xml.sax.saxutils import escape

from questc import __version__
from questc.errors import SheetTemplateError

_DIRECTIVE = re.compile(r"^@([A-Za-z_][A-Za-z0-9_]*)(?:[ \t]+(.*))?$")

# Block kinds the layout knows besides paragraph styles.
_CONTROL = {"map", "space", "pagebreak", "table", "row", "cell", "endtable", "toc"}


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


# ---- styles ----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _config() -> dict:
    from questc.emit.sheet import load_yaml

    return load_yaml("styles.yaml")


@lru_cache(maxsize=None)
def _paragraph_styles() -> dict:
    """styles.yaml `paragraphs` in; reportlab ParagraphStyles by name out."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    from questc.emit.fonts import register_reportlab

    fonts = register_reportlab()
    align = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
    out = {}
    for name, spec in _config()["paragraphs"].items():
        spec = spec or {}
        size = float(spec.get("size", 10))
        kwargs = dict(
            fontName=fonts[spec.get("font", "regular")],
            fontSize=size,
            leading=float(spec.get("leading", size * 1.3)),
            textColor=colors.HexColor(spec.get("colour", "#000000")),
            spaceBefore=float(spec.get("space_before", 0)),
            spaceAfter=float(spec.get("space_after", 0)),
            leftIndent=float(spec.get("left_indent", 0)),
            rightIndent=float(spec.get("right_indent", 0)),
            alignment=align[spec.get("alignment", "left")],
            keepWithNext=1 if spec.get("keep_with_next") else 0,
        )
        if spec.get("background"):
            kwargs.update(backColor=colors.HexColor(spec["background"]),
                          borderPadding=float(spec.get("padding", 4)))
        if spec.get("border"):
            kwargs.update(borderColor=colors.HexColor(spec["border"]), borderWidth=0.6,
                          borderPadding=float(spec.get("padding", 4)))
        if spec.get("bullet"):
            kwargs.update(bulletFontName=fonts["regular"], bulletFontSize=size,
                          bulletIndent=float(spec.get("bullet_indent", 0)))
        style = ParagraphStyle(name, **kwargs)
        style.questc_bullet = spec.get("bullet")
        style.questc_toc = bool(spec.get("toc"))
        out[name] = style
    return out


def _page_geometry() -> tuple:
    """styles.yaml `page` in; (page size, margin, footer height) in points out."""
    from reportlab.lib.pagesizes import A4, letter
    from reportlab.lib.units import mm

    page = _config()["page"]
    size = {"a4": A4, "letter": letter}.get(str(page.get("size", "A4")).lower())
    if size is None:
        raise SheetTemplateError(f"styles.yaml: page size {page.get('size')!r} is not A4 or letter")
    return size, float(page.get("margin_mm", 16)) * mm, float(page.get("footer_size", 8)) * 2.5


# ---- flowables ---------------------------------------------------------------------------


def _map_flowable(parts, *, frame_height: float, max_height: float, min_shrink: float, legend: dict | None):
    """The map's parts (questc.emit.png.MapParts) in; a flowable out: the map picture as large as fits
    the frame (never taller than max_height), and under it its legend set as text (`legend`:
    styles.yaml's `legend` section; None: the picture alone).

    Map and legend stay on one page. When the rest of a page is too short, the map shrinks
    to fit it, down to `min_shrink` of its full size; smaller than that, both move to the
    next page (a map too small to read is worse than white space). Only a legend too long
    for any page with its map is let go to flow on after the map.
    """
    from reportlab.platypus import Flowable, Spacer

    class MapPicture(Flowable):
        """The quest map at a scale fixed by its MapBlock, centred."""

        def __init__(self, scale: float):
            super().__init__()
            self.scale = scale
            self.hAlign = "CENTER"

        def wrap(self, available_width, available_height):
            w, h = parts.image.size
            self.width, self.height = w * self.scale, h * self.scale
            return self.width, self.height

        def draw(self):
            self.canv.drawImage(_reader(parts.image), 0, 0, self.width, self.height)

    class MapBlock(Flowable):
        """The quest map, scaled to the frame's width (or to max_height), centred; its legend below."""

        def __init__(self):
            super().__init__()
            self.key = _legend(parts, legend) if legend is not None else None
            self.gap = float(legend.get("space_before", 6)) if legend is not None else 0.0

        def _below(self, available_width) -> float:
            """The height the legend takes under the map (with the gap between them)."""
            if self.key is None:
                return 0.0
            _w, h = self.key.wrap(available_width, 1e9)
            return self.gap + h

        def _natural(self, available_width) -> float:
            """The map's full scale: the frame's width, or max_height."""
            w, h = parts.image.size
            return min(available_width / w, max_height / h)

        def smallest(self, available_width) -> float:
            """The least height this takes: the map shrunk as far as it may, and the legend."""
            _w, h = parts.image.size
            return h * self._natural(available_width) * min_shrink + self._below(available_width)

        def wrap(self, available_width, available_height):
            _w, h = parts.image.size
            below = self._below(available_width)
            scale = self._natural(available_width)
            if h * scale + below > available_height >= h * scale * min_shrink + below:
                scale = (available_height - below) / h
            self.scale = scale
            self.width, self.height = available_width, h * scale + below
            return self.width, self.height

        def split(self, available_width, available_height):
            if self.key is None or self.smallest(available_width) <= frame_height:
                return []     # it moves to the next page, where it fits whole
            # a legend too long for any page with its map: the map, then the legend flows on
            _w, h = parts.image.size
            scale = min(self._natural(available_width), frame_height / h)
            return [MapPicture(scale), Spacer(1, self.gap), self.key]

        def draw(self):
            w, h = parts.image.size
            width, height = w * self.scale, h * self.scale
            self.canv.drawImage(_reader(parts.image), (self.width - width) / 2, self.height - height, width, height)
            if self.key is not None:
                self.key.wrap(self.width, 1e9)
                self.key.drawOn(self.canv, 0, 0)

    return MapBlock()


def _reader(image):
    """A picture (Pillow, or a _PackedPicture) in; a reportlab ImageReader of it out, made anew for
    each drawing: a reader keeps the decoded pixels, and a guide lays out every quest's sheet."""
    from reportlab.lib.utils import ImageReader

    return ImageReader(image.open() if isinstance(image, _PackedPicture) else image)


class _PackedPicture:
    """A picture held compressed until it is drawn (a map of 80 px cells is 17 MB of pixels,
    a quarter of a megabyte packed): a guide keeps every quest's sheet until the end. Plain
    zlib at its fastest level: twice as quick as PNG both ways, and as small within a third."""

    def __init__(self, image):
        import zlib

        self.data, self.size, self.mode = zlib.compress(image.tobytes(), 1), image.size, image.mode

    def open(self):
        import zlib

        from PIL import Image

        return Image.frombytes(self.mode, self.size, zlib.decompress(self.data))


def _packed(parts, shared: dict):
    """MapParts in; the same with the map packed and the legend's pictures shared with the earlier
    quests' equal ones (`shared`: pixels -> picture), so a guide's memory does not grow with them."""
    from dataclasses import replace

    def one(image):
        return shared.setdefault((image.mode, image.size, image.tobytes()), image)

    symbols = tuple(replace(symbol, image=one(symbol.image)) for symbol in parts.symbols)
    return replace(parts, image=_PackedPicture(parts.image), symbols=symbols, compass=one(parts.compass))


def _legend(parts, spec: dict, symbols=None, continued: bool = False):
    """The map's legend as a flowable: the compass rose at the left, the heading, then each entry's
    symbol and words in columns (top to bottom, then left to right), in the bundled font at
    `spec['size']` points. Splits between rows if a page cannot hold it all."""
    return _legend_class()(parts, spec, symbols, continued)


@lru_cache(maxsize=None)
def _legend_class():
    import math

    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Flowable

    from questc.emit.fonts import register_reportlab

    class Legend(Flowable):
        """See _legend. `continued`: the rest of a legend past a page break, without heading or rose."""

        def __init__(self, parts, spec, symbols, continued):
            super().__init__()
            self.parts, self.spec = parts, spec
            self.symbols = tuple(parts.symbols if symbols is None else symbols)
            self.continued = continued
            fonts = register_reportlab()
            self.font, self.bold = fonts["regular"], fonts["bold"]
            self.size = float(spec.get("size", 8.5))
            self.heading_size = float(spec.get("heading_size", self.size + 1))
            self.icon = float(spec.get("icon", 13))
            self.row = max(float(spec.get("row", 16)), self.icon + 1)
            self.label_gap = float(spec.get("label_gap", 5))
            self.min_gap, self.max_gap = float(spec.get("column_gap", 14)), float(spec.get("max_column_gap", 36))
            # a continued legend keeps the columns' indent but not the rose
            self.compass = float(spec.get("compass", 34))
            self.compass_gap = float(spec.get("compass_gap", 12))
            self.head = self.heading_size * 1.6 if not continued else 0.0     # the heading's line
            self.colour = _hex(str(spec.get("colour", "#1f1a15")))
            self.widths = [stringWidth(s.label, self.font, self.size) for s in self.symbols]
            self._plan_for = None

        # layout ----------------------------------------------------------------------
        def _plan(self, available_width):
            """Columns as many as fit `available_width`: (rows, [(first index, column width)], gap)."""
            if self._plan_for == available_width:
                return self._layout
            room = available_width - self.compass - self.compass_gap
            count = len(self.symbols)
            best = None
            for columns in range(max(1, count), 0, -1):
                rows = math.ceil(count / columns) if count else 0
                used = math.ceil(count / rows) if rows else 0
                cols = [(i, self.icon + self.label_gap + max(self.widths[i:i + rows]))
                        for i in range(0, count, rows)] if rows else []
                need = sum(w for _i, w in cols) + self.min_gap * max(0, used - 1)
                if need <= room or columns == 1:
                    spare = room - sum(w for _i, w in cols)
                    gap = min(self.max_gap, spare / (used - 1)) if used > 1 else 0.0
                    best = (rows, cols, max(gap, self.min_gap))
                    break
            self._layout, self._plan_for = best, available_width
            return best

        def wrap(self, available_width, available_height):
            rows, _cols, _gap = self._plan(available_width)
            self.width = available_width
            self.height = self.head + rows * self.row
            if not self.continued:
                self.height = max(self.compass, self.height)
            return self.width, self.height

        def split(self, available_width, available_height):
            rows, cols, _gap = self._plan(available_width)
            fit = int((available_height - self.head) // self.row)
            if fit < 1 or fit >= rows:
                return []
            # as many entries as fill `fit` rows; fewer if, laid out anew, they take more rows
            for first in range(fit * len(cols), 0, -1):
                part = _legend(self.parts, self.spec, self.symbols[:first], self.continued)
                if part.wrap(available_width, available_height)[1] <= available_height:
                    return [part, _legend(self.parts, self.spec, self.symbols[first:], True)]
            return []

        # drawing -----------------------------------------------------------------------
        def draw(self):
            canvas = self.canv
            rows, cols, gap = self._plan(self.width)
            top = self.height
            if not self.continued:
                canvas.drawImage(ImageReader(self.parts.compass), 0, top - self.compass, self.compass, self.compass)
            left = self.compass + self.compass_gap
            canvas.setFillColorRGB(*self.colour)
            if not self.continued:
                canvas.setFont(self.bold, self.heading_size)
                canvas.drawString(left, top - self.heading_size * 0.95, self.parts.heading)
            pad = self.parts.pad
            x = left
            for first, width in cols:
                for index in range(first, min(first + rows, len(self.symbols))):
                    symbol = self.symbols[index]
                    y = top - self.head - (index - first) * self.row - (self.row + self.icon) / 2
                    out = self.icon * pad
                    canvas.drawImage(ImageReader(symbol.image), x - out, y - out, self.icon + 2 * out,
                                     self.icon + 2 * out)
                    canvas.setFont(self.font, self.size)
                    # the words' middle (of a capital) on the symbol's middle
                    canvas.drawString(x + self.icon + self.label_gap, y + self.icon / 2 - self.size * 0.36,
                                      symbol.label)
                x += width + gap

    return Legend


def _flowables(blocks: list[Block], *, frame_width: float, frame_height: float, map_parts=None,
               toc=None) -> list:
    """Blocks in; platypus flowables out. `map_parts` (questc.emit.png.MapParts) fills @map; `toc`
    (a TableOfContents) fills @toc."""
    from reportlab.lib import colors
    from reportlab.platypus import PageBreak, Paragraph, Spacer, Table, TableStyle

    styles = _paragraph_styles()
    config = _config()

    def paragraph(style_name: str, text: str, line: int):
        style = styles.get(style_name)
        if style is None:
            raise SheetTemplateError(f"line {line}: no paragraph style {style_name!r} in styles.yaml "
                                     f"(known: {', '.join(sorted(styles))})")
        try:
            para = Paragraph(text, style, bulletText=style.questc_bullet)
        except ValueError as error:  # reportlab's markup parser: a template's broken tag
            raise SheetTemplateError(f"line {line}: bad paragraph markup in @{style_name}: {error}") from None
        para.questc_toc = style.questc_toc
        return para

    next_map = None   # the next @map's flowable, made once: the heading before it measures it too

    def map_block():
        nonlocal next_map
        if next_map is None:
            spec = config.get("map", {})
            next_map = _map_flowable(map_parts, frame_height=frame_height,
                                     max_height=frame_height * float(spec.get("max_height", 0.8)),
                                     min_shrink=float(spec.get("min_shrink", 1.0)),
                                     legend=config.get("legend") or {})
        return next_map

    out = []
    for index, block in enumerate(blocks):
        kind = block.kind
        if kind == "map":
            if map_parts is None:
                raise SheetTemplateError(f"line {block.line}: @map, but there is no map here")
            out.append(map_block())
            next_map = None
        elif kind == "space":
            try:
                out.append(Spacer(1, float(block.text or 6)))
            except ValueError:
                raise SheetTemplateError(f"line {block.line}: @space takes a number of points") from None
        elif kind == "pagebreak":
            out.append(PageBreak())
        elif kind == "toc":
            if toc is None:
                raise SheetTemplateError(f"line {block.line}: @toc belongs in a guide's front pages")
            out.append(toc)
        elif kind == "table":
            spec = config.get("tables", {}).get(block.style)
            if spec is None:
                raise SheetTemplateError(f"line {block.line}: no table style {block.style!r} in styles.yaml")
            rows = [[paragraph(style, text, block.line) for style, text in row] for row in block.rows if row]
            if not rows:
                continue
            columns = max(len(r) for r in rows)
            rows = [r + [""] * (columns - len(r)) for r in rows]
            shares = list(spec.get("widths", [])) or [1 / columns] * columns
            widths = [frame_width * float(shares[i] if i < len(shares) else 0) for i in range(columns)]
            pad = float(spec.get("padding", 4))
            commands = [
                # the table's own default font is Helvetica: name the bundled one instead
                ("FONTNAME", (0, 0), (-1, -1), _paragraph_styles()["cell"].fontName),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
                ("TOPPADDING", (0, 0), (-1, -1), pad * 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.8),
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor(spec.get("grid", "#999999"))),
            ]
            if spec.get("header_background"):
                commands.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(spec["header_background"])))
            if spec.get("stripe"):
                for r in range(2, len(rows), 2):
                    commands.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor(spec["stripe"])))
            table = Table(rows, colWidths=widths, repeatRows=1 if spec.get("header_background") else 0,
                          hAlign="LEFT", spaceBefore=2, spaceAfter=6)
            table.setStyle(TableStyle(commands))
            out.append(table)
        else:
            para = paragraph(kind, block.text, block.line)
            following = blocks[index + 1].kind if index + 1 < len(blocks) else None
            if following == "map" and map_parts is not None and para.style.keepWithNext:
                # Keep-with-next would wrap heading and map together at full size, so the
                # map could never shrink into the rest of a page. Instead: a new page only
                # if the heading and the smallest acceptable map (with its legend) do not fit.
                from reportlab.platypus import CondPageBreak

                smallest = map_block().smallest(frame_width)
                _w, heading = para.wrap(frame_width, frame_height)
                out.append(CondPageBreak(heading + para.style.spaceBefore + para.style.spaceAfter + smallest))
                para.style = _unkept(para.style)
            out.append(para)
    return out


@lru_cache(maxsize=None)
def _unkept_cache(style):
    from reportlab.lib.styles import ParagraphStyle

    copy = ParagraphStyle(style.name + "-unkept", parent=style, keepWithNext=0)
    copy.questc_bullet, copy.questc_toc = style.questc_bullet, style.questc_toc
    return copy


def _unkept(style):
    """A paragraph style in; the same style without keep-with-next out."""
    return _unkept_cache(style)


# ---- the document ------------------------------------------------------------------------


def _document(stream, *, title: str, author: str | None, subject: str):
    """A platypus document with the sheet's page: one frame, a footer naming the quest on the page,
    contents entries and bookmarks for every quest title."""
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    from questc.emit.fonts import register_reportlab

    fonts = register_reportlab()
    page = _config()["page"]
    size, margin, footer = _page_geometry()

    class SheetDocument(BaseDocTemplate):
        def __init__(self):
            super().__init__(stream, pagesize=size, leftMargin=margin, rightMargin=margin, topMargin=margin,
                             bottomMargin=margin, title=title, author=author or "", subject=subject,
                             creator=f"questc {__version__}", invariant=1,
                             # else every page names Helvetica as its starting font
                             initialFontName=fonts["regular"])
            frame = Frame(margin, margin + footer, size[0] - 2 * margin, size[1] - 2 * margin - footer,
                          id="body", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
            self.addPageTemplates([PageTemplate("sheet", [frame], onPageEnd=self._footer)])
            self.frame_size = (frame._aW, frame._aH)
            self._quest = ""
            self._marks = 0

        def beforeDocument(self):
            # multiBuild lays the story out more than once: start each pass afresh
            self._quest = ""
            self._marks = 0

        def afterFlowable(self, flowable):
            if getattr(flowable, "questc_toc", False):
                text = flowable.getPlainText()
                self._quest = text
                self._marks += 1
                key = f"quest-{self._marks}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(text, key, level=0, closed=False)
                self.notify("TOCEntry", (0, escape(text), self.page, key))

        def _footer(self, canvas, doc):
            if not self._quest:   # the guide's own title and contents pages
                return
            canvas.saveState()
            canvas.setFont(fonts["regular"], float(page.get("footer_size", 8)))
            canvas.setFillColorRGB(*_hex(page.get("footer_colour", "#666666")))
            y = margin
            canvas.drawString(margin, y, str(page.get("footer", "{title}")).format(title=self._quest))
            canvas.drawRightString(size[0] - margin, y, str(page.get("page_number", "{page}")).format(page=doc.page))
            canvas.restoreState()

    return SheetDocument()


def _hex(value: str) -> tuple[float, float, float]:
    value = value.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def _map_parts(result):
    """The map without its legend, and the legend's symbols, as styles.yaml sizes them."""
    from questc.emit.png import render_map_parts

    legend = _config().get("legend") or {}
    return render_map_parts(result, cell=int(_config().get("map", {}).get("cell_px", 80)),
                            symbol_px=int(legend.get("icon_px", 72)), compass_px=int(legend.get("compass_px", 160)),
                            budget=MAP_PIXEL_BUDGET)


# The map picture on a sheet: at most this many pixels (about 3,400 x 3,400, over 400 dpi
# on the page); a wider map is shrunk to it. The largest shipped quest's is 6.7 million.
MAP_PIXEL_BUDGET = 12_000_000


def _sheet_story(result, doc) -> list:
    """One compiled quest in; its sheet's flowables out (data -> sheet.j2 -> blocks -> flowables)."""
    from questc.emit.sheet import sheet_data, template

    data = sheet_data(result)
    markup = template("sheet.j2").render(q=data)
    width, height = doc.frame_size
    return _flowables(parse_blocks(markup), frame_width=width, frame_height=height, map_parts=_map_parts(result))


def render_pdf(result) -> bytes:
    """A compiled QuestResult in; its printable sheet out, as PDF bytes (the same bytes every time).

    Raises ValueError if the quest did not compile.
    """
    from questc.emit.sheet import sheet_data

    model = result.model
    sheet_data(result)  # fail early and clearly on a quest with errors
    out = io.BytesIO()
    doc = _document(out, title=model.title, author=model.author, subject="Descent quest sheet")
    story = _sheet_story(result, doc)
    with _binary_streams():
        doc.build(story)
    return out.getvalue()


def render_guide(results, progress=None, title: str | None = None) -> bytes:
    """Compiled QuestResults in (any iterable, read once, one quest at a time); one PDF out: a
    title page, the contents (with page numbers), then each quest's sheet from a new page, in
    the order given.

    `progress`, if given, is called with 1 after each quest is prepared (click's
    `bar.update` fits). Raises ValueError if any quest did not compile (the caller
    reports and leaves those out) or if there is no quest at all.
    """
    from reportlab.platypus import PageBreak, TableStyle
    from reportlab.platypus.tableofcontents import TableOfContents, defaultTableStyle

    from questc.emit.sheet import sheet_data, template

    out = io.BytesIO()
    doc = _document(out, title=title or "Quest Guide", author=None, subject="Descent quest guide")
    width, height = doc.frame_size
    styles = _paragraph_styles()
    toc = TableOfContents(dotsMinLevel=0, tableStyle=TableStyle(
        list(defaultTableStyle.getCommands())
        # the contents table's own default font is Helvetica: name the bundled one instead
        + [("FONTNAME", (0, 0), (-1, -1), styles["toc_entry"].fontName)]))
    toc.levelStyles = [styles["toc_entry"]]
    sheet = template("sheet.j2")
    # One quest at a time: its sheet is laid out into flowables (its map packed) and the
    # result is not kept, so `results` may be a generator that checks quests as it goes
    # and memory grows by a packed sheet per quest, not by a checked quest and its pixels.
    datas: list[dict] = []
    sheets: list = []
    shared: dict = {}
    for result in results:
        data = sheet_data(result)
        datas.append(data)
        sheets.append(PageBreak())
        sheets += _flowables(parse_blocks(sheet.render(q=data)), frame_width=width, frame_height=height,
                             map_parts=_packed(_map_parts(result), shared))
        del result   # let the quest go before the next one is read (`results` may check it then)
        if progress is not None:
            progress(1)
    if not datas:
        raise ValueError("a guide needs at least one quest")
    front = template("guide.j2").render(title=title, quests=datas)
    story = _flowables(parse_blocks(front), frame_width=width, frame_height=height, toc=toc) + sheets
    # Two passes at least: the contents learn their page numbers from the first.
    with _binary_streams():
        doc.multiBuild(story)
    return out.getvalue()


@contextmanager
def _binary_streams():
    """Write compressed streams as binary, not ASCII85: without reportlab's C accelerator the
    pure-Python ASCII85 encoder takes most of a sheet's time (and the file grows a quarter)."""
    from reportlab import rl_config

    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved
