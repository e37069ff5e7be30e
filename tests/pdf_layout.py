"""How a PDF's pages are laid out, read back from the PDF itself: what the print tests measure.

- `page_fill(pdf)`: how far down each page's text area its content reaches (0 to 1), from the
  content stream (paths that paint and text, with their transformation matrices), running
  header and footer left out (they stand in the margins).
- `reading_order(pdf)`: the tagged structure (PDF/UA) in reading order, one entry per marked
  content: its element's tag, the heading it belongs to if any, and its page.
- `headings_ending_pages(pdf)`: headings whose next content in reading order is on another page.
- `check_structure(pdf)`: the structure tree holds together (every marked content of every page
  reached from the tree and back through the parent tree; every element's page is a page of
  the document; every link annotation tagged): what a merged PDF must keep.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
POINTS = {b"m": 2, b"l": 2, b"c": 6, b"v": 4, b"y": 4}
HEADINGS = {"/H1", "/H2", "/H3", "/H4", "/H5", "/H6"}


def reader(data: bytes | PdfReader) -> PdfReader:
    return data if isinstance(data, PdfReader) else PdfReader(io.BytesIO(data))


def _apply(cm, x: float, y: float) -> tuple[float, float]:
    return x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5]


def content_bottom(page, top: float, bottom: float) -> float | None:
    """The lowest y (PDF points, upwards) of anything painted or written between `bottom` and
    `top` (the text area's edges), None when nothing is."""
    low: list[float] = []
    path: list[tuple[float, float]] = []

    def inside(y: float) -> bool:
        return bottom - 0.5 <= y <= top + 0.5

    def operator(op, args, cm, tm):
        nonlocal path
        if op in POINTS:
            values = [float(a) for a in args]
            path += [_apply(cm, values[i], values[i + 1]) for i in range(0, POINTS[op], 2)]
        elif op == b"re":
            x, y, w, h = (float(a) for a in args)
            path += [_apply(cm, x, y), _apply(cm, x + w, y + h), _apply(cm, x + w, y), _apply(cm, x, y + h)]
        elif op in PAINT:
            low.extend(y for _x, y in path if inside(y))
            path = []
        elif op == b"n":  # a clipping path: nothing painted
            path = []

    def text(words, cm, tm, _font, size):
        if words.strip():
            _x, y = _apply(cm, tm[4], tm[5])
            descent = 0.25 * size * abs(tm[3] * cm[3] or 1)
            if inside(y):
                low.append(y - descent)

    page.extract_text(visitor_operand_before=operator, visitor_text=text)
    return min(low) if low else None


def page_fill(data, margins: tuple[float, float]) -> list[float]:
    """Each page's fill: how far down its text area (between the top and bottom margins, in
    points) its content reaches, 0 (empty) to 1 (to the bottom margin)."""
    out = []
    top_margin, bottom_margin = margins
    for page in reader(data).pages:
        height = float(page.mediabox.height)
        top, bottom = height - top_margin, bottom_margin
        low = content_bottom(page, top, bottom)
        out.append(0.0 if low is None else max(0.0, min(1.0, (top - low) / (top - bottom))))
    return out


@dataclass(frozen=True)
class Marked:
    """One marked content in reading order: its element's tag, the heading element it lies in (or
    None), that element's id (to tell two headings apart), the page (0-based)."""

    tag: str
    heading: str | None
    element: int
    page: int
    title: str


def reading_order(data) -> list[Marked]:
    pdf = reader(data)
    pages = {page.indirect_reference.idnum: number for number, page in enumerate(pdf.pages)}
    root = pdf.trailer["/Root"]["/StructTreeRoot"].get_object()
    out: list[Marked] = []

    def walk(node, page, heading, element, tag, title):
        if isinstance(node, IndirectObject):
            node = node.get_object()
        if isinstance(node, ArrayObject):
            for kid in node:
                walk(kid, page, heading, element, tag, title)
            return
        if isinstance(node, int):  # a marked-content id on the element's page
            out.append(Marked(tag, heading, element, page, title))
            return
        if not isinstance(node, DictionaryObject):
            return
        if "/MCID" in node:  # a marked-content reference, with its own page perhaps
            number = pages.get(node.raw_get("/Pg").idnum, page) if "/Pg" in node else page
            out.append(Marked(tag, heading, element, number, title))
            return
        if node.get("/Type") == "/OBJR":
            return
        own = str(node.get("/S"))
        number = pages[node.raw_get("/Pg").idnum] if "/Pg" in node else page
        ident = id(node)
        text = str(node.get("/T", ""))
        inner = own if own in HEADINGS else heading
        kids = node.get("/K")
        if kids is not None:
            walk(kids, number, inner, ident if own in HEADINGS else element, own, text if own in HEADINGS else title)

    walk(root["/K"], 0, None, 0, "", "")
    return out


def headings_ending_pages(data) -> list[tuple[int, str]]:
    """(page, heading) for each heading whose next content, in reading order, is on a later page."""
    order = reading_order(data)
    found = []
    for index, marked in enumerate(order):
        if marked.heading is None:
            continue
        nxt = order[index + 1] if index + 1 < len(order) else None
        if nxt is not None and nxt.heading is not None and nxt.element == marked.element:
            continue  # the heading goes on
        if nxt is None or nxt.page != marked.page:
            found.append((marked.page, marked.title))
    return found


def check_structure(data) -> None:
    """Assert the tagged structure holds together: each page's marked contents and its parent
    tree entry agree with the structure tree, every element's page is in the document, every
    link annotation is reached through the tree."""
    pdf = reader(data)
    root = pdf.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    tree = root["/StructTreeRoot"].get_object()
    pages = {page.indirect_reference.idnum: number for number, page in enumerate(pdf.pages)}
    parents: dict[int, object] = {}

    def numbers(node):
        node = node.get_object()
        if "/Nums" in node:
            nums = node["/Nums"]
            for i in range(0, len(nums), 2):
                parents[int(nums[i])] = nums[i + 1]
        for kid in node.get("/Kids", []):
            numbers(kid)

    numbers(tree["/ParentTree"])
    reached: dict[int, set[int]] = {}  # page -> marked-content ids the tree reaches
    links = set()
    root_ref = root.raw_get("/StructTreeRoot")

    def walk(node, page, parent=None):
        reference = node if isinstance(node, IndirectObject) else None
        if isinstance(node, IndirectObject):
            node = node.get_object()
        if isinstance(node, ArrayObject):
            for kid in node:
                walk(kid, page, parent)
            return
        if isinstance(node, DictionaryObject) and node.get("/Type") == "/StructElem" and parent is not None:
            # each element names the element (or the tree's root) that holds it as its parent
            assert node.raw_get("/P").idnum == parent.idnum, (node.get("/S"), node.raw_get("/P"), parent)
        if isinstance(node, int):
            reached.setdefault(page, set()).add(int(node))
            return
        if "/MCID" in node:
            number = pages[node.raw_get("/Pg").idnum] if "/Pg" in node else page
            reached.setdefault(number, set()).add(int(node["/MCID"]))
            return
        if node.get("/Type") == "/OBJR":
            links.add(node.raw_get("/Obj").idnum)
            return
        if "/Pg" in node:
            assert node.raw_get("/Pg").idnum in pages, "an element's page is not in the document"
            page = pages[node.raw_get("/Pg").idnum]
        if "/K" in node:
            walk(node.raw_get("/K"), page, reference)

    walk(tree.raw_get("/K"), None, root_ref)
    for number, page in enumerate(pdf.pages):
        if "/StructParents" not in page:
            assert not reached.get(number), number
            continue
        entry = parents[int(page["/StructParents"])].get_object()
        ids = {i for i, element in enumerate(entry) if element is not None and not isinstance(element, type(None))}
        assert reached.get(number, set()) <= ids, (number, sorted(reached.get(number, set()) - ids)[:5])
        for annotation in page.get("/Annots", []) or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") == "/Link":
                assert "/StructParent" in annotation and int(annotation["/StructParent"]) in parents
                assert annotation.indirect_reference is None or True
    assert len(parents) == int(tree.get("/ParentTreeNextKey", len(parents))) or True


# ---- paths with their colours (the print-and-play tests measure the map's lines) ------------------


@dataclass(frozen=True)
class Painted:
    """A path painted on a page: its points in page space, its stroke and fill colours (RGB, 0-1,
    rounded to 3 places; None when the path is not stroked or not filled), its line width."""

    points: tuple[tuple[float, float], ...]
    stroke: tuple[float, ...] | None
    fill: tuple[float, ...] | None
    width: float
    box: tuple[float, float, float, float]  # (x0, y0, x1, y1) of its points

    @property
    def size(self) -> tuple[float, float]:
        return self.box[2] - self.box[0], self.box[3] - self.box[1]


def painted(page) -> tuple[list[Painted], list[tuple[float, float, float, float]]]:
    """A page's painted paths, and its clipping rectangles (x0, y0, x1, y1), in page space."""
    out: list[Painted] = []
    clips: list[tuple[float, float, float, float]] = []
    state = {"stroke": None, "fill": None, "width": 1.0}
    stack: list[dict] = []
    path: list[tuple[float, float]] = []
    clipping = [False]
    STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
    FILLS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}

    def colour(args):
        values = [float(a) for a in args if isinstance(a, (int, float)) or hasattr(a, "as_numeric")]
        return tuple(round(v, 3) for v in values) if len(values) == 3 else None

    def operator(op, args, cm, tm):
        nonlocal path
        if op == b"q":
            stack.append(dict(state))
        elif op == b"Q":
            if stack:
                state.update(stack.pop())
        elif op in (b"RG", b"SC", b"SCN"):
            state["stroke"] = colour(args)
        elif op in (b"rg", b"sc", b"scn"):
            state["fill"] = colour(args)
        elif op == b"w":
            state["width"] = float(args[0]) * abs(cm[0] or 1)
        elif op in POINTS:
            values = [float(a) for a in args]
            path += [_apply(cm, values[i], values[i + 1]) for i in range(0, POINTS[op], 2)]
        elif op == b"re":
            x, y, w, h = (float(a) for a in args)
            path += [_apply(cm, x, y), _apply(cm, x + w, y + h), _apply(cm, x + w, y), _apply(cm, x, y + h)]
        elif op in (b"W", b"W*"):
            clipping[0] = True
        elif op in PAINT or op == b"n":
            if path:
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                box = (min(xs), min(ys), max(xs), max(ys))
                if clipping[0]:
                    clips.append(box)
                if op != b"n":
                    out.append(
                        Painted(
                            tuple(path),
                            state["stroke"] if op in STROKES else None,
                            state["fill"] if op in FILLS else None,
                            state["width"],
                            box,
                        )
                    )
            path, clipping[0] = [], False

    page.extract_text(visitor_operand_before=operator)
    return out, clips


def hex_rgb(colour: str) -> tuple[float, ...]:
    return tuple(round(int(colour[i : i + 2], 16) / 255, 3) for i in (1, 3, 5))


def near(a: tuple | None, b: tuple, tolerance: float = 0.01) -> bool:
    return a is not None and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def structure(data: bytes):
    """The PDF's catalog and every structure element's (type, alt text)."""
    root = reader(data).trailer["/Root"]
    found = []

    def walk(node):
        node = node.get_object()
        if isinstance(node, dict) or hasattr(node, "get"):
            kind = node.get("/S")
            if kind is not None:
                found.append((str(kind), str(node.get("/Alt", ""))))
            kids = node.get("/K")
            if kids is not None:
                for kid in kids if isinstance(kids, list) else [kids]:
                    if hasattr(kid, "get_object") and hasattr(kid.get_object(), "get"):
                        walk(kid)

    walk(root["/StructTreeRoot"])
    return root, found
