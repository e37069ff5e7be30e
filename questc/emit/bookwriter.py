"""Typeset parts in (PDF files, read with pikepdf), one at a time; one PDF book out, written as it comes.

qpdf (through pikepdf) reads each part; this module writes the book's file itself. A merge in
qpdf keeps every object of every part in memory until the book is saved (0.3 to 1.5 MB a
quest: 200 quests' guide reached 550 MB with the typesetting's 260); written here, a part's
objects go to the file as they are read and only their numbers are kept, so the book's
memory is one part's, however long it is (docs/performance.md, "Guide memory").

What the book is made of:
- each part's pages, in order, with everything they use (contents, fonts, images,
  annotations), renumbered; `blank()` adds an empty page between parts;
- the tagged structure (PDF/UA): each part's top-level structure elements become children of
  the book's Document element, in book order; its parent tree entries are renumbered (each
  page's /StructParents and each annotation's /StructParent moved by the same amount);
- links written `questc:page/N` become links to the book's page N (counted from the first
  page after the front, blanks included), with "Go to page N" as their alt text;
- the bookmarks (each part's, in order), the page labels (the front in roman numerals, the
  rest from 1), the front's metadata (its XMP page count made the book's), language and
  document information.
Objects other than streams are packed, PACKED at a time, into compressed object streams, with
a cross-reference stream at the end (PDF 1.5); the file identifier is the MD5 of its bytes,
so the same parts give the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

PAGE_LINK = re.compile(r"^questc:page/(\d+)$")

Outline = tuple[str, int, Any, list]  # (title, page object number, top, children)
PACKED = 200  # objects to an object stream: its header and its objects read at once by a reader


@dataclass
class _Source:
    """What the book keeps of one part once its objects are written: numbers only."""

    pages: list[int] = field(default_factory=list)
    kids: list[int] = field(default_factory=list)  # top-level structure elements
    outline: list[Outline] = field(default_factory=list)
    nest: bool = False  # its bookmarks go under the last bookmark of the part before it
    sizes: list[tuple] = field(default_factory=list)  # each page's media box


class BookWriter:
    """A book being written to `file` (see the module docstring): `add` each part (or the front,
    or the index) in any order saying where it goes (`front=True`: before the numbered pages),
    `blank()` between parts, then `finish(front)`."""

    def __init__(self, file: BinaryIO):
        self.file = file
        self.digest = hashlib.md5()
        # object number -> (1, offset, 0) written at an offset, (2, object stream, index) packed
        self.offsets: list[tuple[int, int, int]] = [(0, 0, 65535)]
        self.packed: list[tuple[int, bytes]] = []
        self.position = 0
        self.pages_number = self._reserve()
        self.document_number = self._reserve()
        self.root_number = self._reserve()
        self.numbered: list[int] = []  # the book's numbered pages (after the front), in order
        self.front: _Source | None = None
        self.body: list[_Source] = []
        self.parent_tree: list[bytes] = []  # "key value" pairs, keys ascending
        self.next_key = 0
        self.role_map: dict[str, Any] = {}
        self.size: tuple = (0, 0, 595.28, 841.89)
        self._write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    # the file --------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        self.file.write(data)
        self.digest.update(data)
        self.position += len(data)

    def _reserve(self) -> int:
        self.offsets.append((0, 0, 0))
        return len(self.offsets) - 1

    def _object(self, number: int, body: bytes, stream: bool = False) -> None:
        """An object: a stream written at once, any other packed into the next object stream."""
        if not stream:
            self.packed.append((number, body))
            if len(self.packed) >= PACKED:
                self._pack()
            return
        self.offsets[number] = (1, self.position, 0)
        self._write(b"%d 0 obj\n" % number + body + b"\nendobj\n")

    def _pack(self) -> None:
        """The objects waiting, as one compressed object stream."""
        if not self.packed:
            return
        number = self._reserve()
        header, bodies, at = [], [], 0
        for index, (member, body) in enumerate(self.packed):
            header.append(b"%d %d" % (member, at))
            bodies.append(body)
            at += len(body) + 1
            self.offsets[member] = (2, number, index)
        head = b" ".join(header) + b"\n"
        data = zlib.compress(head + b"\n".join(bodies) + b"\n", 6)
        self.packed = []
        self._object(
            number,
            b"<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
            % (len(header), len(head), len(data))
            + data
            + b"\nendstream",
            stream=True,
        )

    # the parts --------------------------------------------------------------------------
    def add(self, path: Path | str, *, front: bool = False, nest: bool = False, backs: bool = False) -> int:
        """One typeset part's PDF in; its pages written after the book's pages so far (or, `front`,
        as the front). `nest`: its bookmarks go under the last one of the part before it (a quest's
        print-and-play pages under the quest). `backs`: a blank page after each of its pages (pages
        to cut up, printed on both sides). Returns its number of pages, blanks included."""
        import pikepdf

        with pikepdf.open(path) as pdf:
            source = self._copy(pdf)
        source.nest = nest
        if backs:
            pages = list(source.pages)
            source.pages = []
            for page, size in zip(pages, source.sizes):
                source.pages += [page, self._blank_page(size)]
        if front:
            self.front = source
        else:
            self.body.append(source)
            self.numbered += source.pages
        return len(source.pages)

    def blank(self, *, front: bool = False) -> None:
        """An empty page after the book's numbered pages so far (a left-hand page before a part
        that starts on the right), or (`front`) after the front's pages."""
        number = self._blank_page()
        if front:
            assert self.front is not None, "add the front before its blank page"
            self.front.pages.append(number)
        else:
            self.numbered.append(number)
            self.body.append(_Source(pages=[number]))

    def _blank_page(self, size: tuple | None = None) -> int:
        number = self._reserve()
        box = b"[" + b" ".join(_number(v) for v in (size or self.size)) + b"]"
        self._object(
            number, b"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources << >> >>" % (self.pages_number, box)
        )
        return number

    def _copy(self, pdf) -> _Source:
        import pikepdf

        source = _Source()
        refs: dict[tuple[int, int], int] = {}
        queue: list[Any] = []

        def number(obj) -> int:
            key = obj.objgen
            found = refs.get(key)
            if found is None:
                found = refs[key] = self._reserve()
                queue.append(obj)
            return found

        # what the book replaces: the part's page tree, structure tree root and Document element
        node = pdf.Root.Pages
        self._page_tree(node, refs)
        tree = pdf.Root.get("/StructTreeRoot")
        key_offset = self.next_key
        if tree is not None:
            refs[tree.objgen] = self.root_number
            kids = tree.get("/K")
            documents = [kids] if isinstance(kids, pikepdf.Dictionary) else list(kids or [])
            for document in documents:
                if document.get("/S") == "/Document" and document.is_indirect:
                    refs[document.objgen] = self.document_number
                    inner = document.get("/K")
                    children = [inner] if isinstance(inner, pikepdf.Dictionary) else list(inner or [])
                else:
                    children = [document]
                source.kids += [
                    number(child) for child in children if isinstance(child, pikepdf.Object) and child.is_indirect
                ]
            for name, value in (tree.get("/RoleMap") or {}).items():
                self.role_map.setdefault(str(name), value)
            for key, value in _flat_numbers(tree.get("/ParentTree")):
                self.parent_tree.append(b"%d %s" % (key + key_offset, _dump_value(value, refs, number)))
            self.next_key += int(tree.get("/ParentTreeNextKey", 0))
        source.sizes = [tuple(page.obj.MediaBox) for page in pdf.pages]
        if source.sizes:
            self.size = source.sizes[0]
        pages = {page.obj.objgen: number(page.obj) for page in pdf.pages}
        source.pages = [pages[page.obj.objgen] for page in pdf.pages]
        source.outline = _outline(pdf, pages)
        while queue:
            obj = queue.pop()
            self._copy_object(obj, refs, number, key_offset)
        return source

    def _page_tree(self, node, refs) -> None:
        refs[node.objgen] = self.pages_number
        for kid in node.get("/Kids", []):
            if kid.get("/Type") == "/Pages":
                self._page_tree(kid, refs)

    def _copy_object(self, obj, refs, number, key_offset: int) -> None:
        import pikepdf

        kind = obj.get("/Type") if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) else None
        replace: dict[str, bytes] = {}
        if kind == "/Page":
            if "/StructParents" in obj:
                replace["/StructParents"] = b"%d" % (int(obj.StructParents) + key_offset)
            replace["/Parent"] = b"%d 0 R" % self.pages_number
        if isinstance(obj, pikepdf.Dictionary) and "/StructParent" in obj:
            replace["/StructParent"] = b"%d" % (int(obj.StructParent) + key_offset)
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Link":
            link = self._link(obj)
            if link is not None:
                replace.update(link)
        target = refs[obj.objgen]
        if isinstance(obj, pikepdf.Stream):
            data = obj.read_raw_bytes()
            replace["/Length"] = b"%d" % len(data)
            self._object(
                target,
                _dict(obj.stream_dict, refs, number, replace) + b"\nstream\n" + data + b"\nendstream",
                stream=True,
            )
            return
        body = (
            _dict(obj, refs, number, replace)
            if isinstance(obj, pikepdf.Dictionary)
            else _dump_value(obj, refs, number, top=True)
        )
        self._object(target, body)

    def _link(self, annotation) -> dict[str, bytes] | None:
        """A `questc:page/N` link's new action (to page N of the book's numbered pages) and alt text."""
        action = annotation.get("/A")
        if action is None or action.get("/S") != "/URI":
            return None
        found = PAGE_LINK.match(str(action.get("/URI", "")))
        if found is None:
            return None
        wanted = int(found.group(1))
        if not self.numbered:
            return None
        target = self.numbered[max(0, min(len(self.numbered), wanted) - 1)]
        return {"/A": b"<< /S /GoTo /D [%d 0 R /Fit] >>" % target, "/Contents": _string(f"Go to page {wanted}")}

    # the end --------------------------------------------------------------------------------
    def finish(self, front: Path | str) -> None:
        """Write the book's own objects (page tree, structure tree, bookmarks, catalog) and its
        cross-reference table, with `front` (a part already added with front=True) giving the
        catalog's metadata, language and document information."""
        import pikepdf

        assert self.front is not None, "add the front before finishing"
        order = [self.front] + self.body
        pages = [page for source in order for page in source.pages]
        self._object(
            self.pages_number,
            b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(pages), b" ".join(b"%d 0 R" % p for p in pages)),
        )
        kids = [kid for source in order for kid in source.kids]
        self._object(
            self.document_number,
            b"<< /Type /StructElem /S /Document /P %d 0 R /K [%s] >>"
            % (self.root_number, b" ".join(b"%d 0 R" % k for k in kids)),
        )
        tree = self._reserve()
        self._object(tree, b"<< /Nums [%s] >>" % b" ".join(self.parent_tree))
        role_map = b" ".join(_name(k) + b" " + _dump_value(v, {}, None) for k, v in sorted(self.role_map.items()))
        self._object(
            self.root_number,
            b"<< /Type /StructTreeRoot /K %d 0 R /ParentTree %d 0 R "
            b"/ParentTreeNextKey %d /RoleMap << %s >> >>" % (self.document_number, tree, self.next_key, role_map),
        )
        items: list[Outline] = []
        for source in order:
            if source.nest and items:
                items[-1][3].extend(source.outline)
            else:
                items += source.outline
        outline = self._outline(items)
        with pikepdf.open(front) as pdf:
            metadata = self._metadata(pdf, len(pages))
            info = self._info(pdf)
            lang = pdf.Root.get("/Lang")
        front_pages = len(self.front.pages)
        catalog = self._reserve()
        parts = [
            b"/Type /Catalog /Pages %d 0 R /StructTreeRoot %d 0 R" % (self.pages_number, self.root_number),
            b"/MarkInfo << /Marked true >> /ViewerPreferences << /DisplayDocTitle true >>",
            b"/PageLabels << /Nums [0 << /S /r >> %d << /S /D /St 1 >>] >>" % front_pages,
        ]
        if lang is not None:
            parts.append(b"/Lang " + _string(str(lang)))
        if metadata:
            parts.append(b"/Metadata %d 0 R" % metadata)
        if outline:
            parts.append(b"/Outlines %d 0 R /PageMode /UseOutlines" % outline)
        self._object(catalog, b"<< " + b" ".join(parts) + b" >>")
        self._pack()
        xref = self._reserve()
        start = self.position
        self.offsets[xref] = (1, start, 0)
        rows = b"".join(
            bytes([kind]) + first.to_bytes(4, "big") + second.to_bytes(2, "big") for kind, first, second in self.offsets
        )
        data = zlib.compress(rows, 6)
        ident = self.digest.hexdigest().encode()
        fields = b"/Type /XRef /Size %d /W [1 4 2] /Root %d 0 R /ID [<%s> <%s>]" % (
            len(self.offsets),
            catalog,
            ident,
            ident,
        )
        if info:
            fields += b" /Info %d 0 R" % info
        self._write(
            b"%d 0 obj\n<< %s /Filter /FlateDecode /Length %d >>\nstream\n" % (xref, fields, len(data))
            + data
            + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % start
        )

    def _metadata(self, pdf, count: int) -> int | None:
        metadata = pdf.Root.get("/Metadata")
        if metadata is None:
            return None
        data = re.sub(
            rb"<xmpTPg:NPages>\d+</xmpTPg:NPages>", b"<xmpTPg:NPages>%d</xmpTPg:NPages>" % count, metadata.read_bytes()
        )
        number = self._reserve()
        self._object(
            number,
            b"<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n" % len(data) + data + b"\nendstream",
            stream=True,
        )
        return number

    def _info(self, pdf) -> int | None:
        info = pdf.trailer.get("/Info")
        if info is None:
            return None
        number = self._reserve()
        self._object(number, _dict(info, {}, None, {}))
        return number

    def _outline(self, items: list[Outline]) -> int | None:
        """The bookmarks' objects; returns the outline root's number (None: no bookmarks)."""
        if not items:
            return None
        root = self._reserve()

        def place(entries: list[Outline], parent: int) -> tuple[int, int, int]:
            numbers = [self._reserve() for _ in entries]
            visible = len(entries)
            for index, (title, page, top, children) in enumerate(entries):
                fields = [
                    b"/Title " + _string(title),
                    b"/Parent %d 0 R" % parent,
                    b"/Dest [%d 0 R /XYZ null %s null]" % (page, _number(top) if top is not None else b"null"),
                ]
                if index > 0:
                    fields.append(b"/Prev %d 0 R" % numbers[index - 1])
                if index + 1 < len(entries):
                    fields.append(b"/Next %d 0 R" % numbers[index + 1])
                if children:
                    first, last, count = place(children, numbers[index])
                    fields.append(b"/First %d 0 R /Last %d 0 R /Count %d" % (first, last, -count))
                self._object(numbers[index], b"<< " + b" ".join(fields) + b" >>")
            return numbers[0], numbers[-1], visible

        first, last, count = place(items, root)
        self._object(root, b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first, last, count))
        return root


# ---- reading a part -----------------------------------------------------------------------------


def _flat_numbers(tree) -> list[tuple[int, Any]]:
    """A number tree (the parent tree) flattened: (key, value) in key order."""
    if tree is None:
        return []
    out: list[tuple[int, Any]] = []

    def walk(node):
        nums = node.get("/Nums")
        if nums is not None:
            out.extend((int(nums[i]), nums[i + 1]) for i in range(0, len(nums), 2))
        for kid in node.get("/Kids", []):
            walk(kid)

    walk(tree)
    return sorted(out, key=lambda pair: pair[0])


def _outline(pdf, pages: dict) -> list[Outline]:
    """A part's bookmarks: (title, the book's number of its page's object, top, children)."""
    root = pdf.Root.get("/Outlines")

    def item(node) -> Outline:
        destination = node.get("/Dest")
        if destination is None and "/A" in node:
            destination = node.A.get("/D")
        page, top = next(iter(pages.values()), 0), None
        if destination is not None and len(destination) >= 1 and destination[0].objgen in pages:
            page = pages[destination[0].objgen]
            if len(destination) >= 4 and str(destination[1]) == "/XYZ":
                top = destination[3]
        children = []
        child = node.get("/First")
        while child is not None:
            children.append(item(child))
            child = child.get("/Next")
        return (str(node.get("/Title", "")), page, top, children)

    out = []
    child = root.get("/First") if root is not None else None
    while child is not None:
        out.append(item(child))
        child = child.get("/Next")
    return out


# ---- writing objects ---------------------------------------------------------------------------


def _name(name: str) -> bytes:
    import pikepdf

    return pikepdf.Name(name).unparse()


def _string(text: str) -> bytes:
    import pikepdf

    return pikepdf.String(text).unparse()


def _number(value) -> bytes:
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text.encode()
    return repr(float(value)).encode()


def _dict(obj, refs, number, replace: dict[str, bytes]) -> bytes:
    out = [b"<<"]
    for key in sorted(obj.keys()):  # pikepdf gives a set: its hash order would number the objects anew each run
        out.append(_name(key))
        out.append(replace[key] if key in replace else _dump_value(obj.get(key), refs, number))
    for key, value in replace.items():
        if key not in obj:
            out += [_name(key), value]
    out.append(b">>")
    return b" ".join(out)


def _dump_value(value, refs, number, top: bool = False) -> bytes:
    """A PDF value in; its bytes out, references renumbered (`number` numbers one not seen yet)."""
    import pikepdf

    if value is None:
        return b"null"
    if isinstance(value, (bool, int, Decimal, float)):
        return _number(value)
    if isinstance(value, pikepdf.Object):
        if value.is_indirect and not top:
            found = refs.get(value.objgen)
            if found is None:
                if number is None:
                    raise ValueError("a reference the book cannot follow")
                found = number(value)
            return b"%d 0 R" % found
        if isinstance(value, pikepdf.Dictionary):
            return _dict(value, refs, number, {})
        if isinstance(value, pikepdf.Array):
            return b"[" + b" ".join(_dump_value(v, refs, number) for v in value) + b"]"
        return value.unparse()
    raise TypeError(f"a PDF value of type {type(value).__name__}")
