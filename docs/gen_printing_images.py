"""Render the pictures of docs/printing.md: a page of each printed output, from the shipped quests.

    python docs/gen_printing_images.py        # writes docs/images/printing/*.png

It builds the outputs with questc (in a temporary folder), renders the pages it shows with
`pdftoppm` (poppler-utils) and joins pages side by side where the docs show a spread. The
pictures are for reading, not for checking: tests/test_docs_printing.py holds the page to them
(each picture it names exists) and the print tests measure the PDFs themselves.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images" / "printing"
QUESTS = ROOT / "quests"
DPI = 56

# picture -> (the PDF, its pages, 1-based)
PICTURES = {
    "sheet.png": ("sheet", [1]),
    "sheet-map.png": ("sheet", [2]),
    "guide-front.png": ("guide", [1, 2]),
    "guide-part.png": ("guide", ["The Lantern Road", "index"]),
    "play-first.png": ("play", [1]),
    "play-pages.png": ("play", [3, "tokens"]),
}


def pages(pdf: Path, folder: Path, numbers: list[int]) -> list[Path]:
    out = []
    for number in numbers:
        stem = folder / f"{pdf.stem}-{number}"
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                str(DPI),
                "-png",
                "-f",
                str(number),
                "-l",
                str(number),
                "-singlefile",
                str(pdf),
                str(stem),
            ],
            check=True,
            capture_output=True,
        )
        out.append(stem.with_suffix(".png"))
    return out


def join(images: list[Path], target: Path) -> None:
    from PIL import Image

    loaded = [Image.open(path).convert("RGB") for path in images]
    gap = 12
    width = sum(image.width for image in loaded) + gap * (len(loaded) - 1)
    height = max(image.height for image in loaded)
    canvas = Image.new("RGB", (width, height), (204, 204, 204))
    x = 0
    for image in loaded:
        canvas.paste(image, (x, 0))
        x += image.width + gap
    canvas.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)


def find_page(pdf: Path, title: str) -> int:
    """The 1-based page a bookmark titled `title` leads to."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    for item in reader.outline:
        if not isinstance(item, list) and item.title == title:
            return reader.get_destination_page_number(item) + 1
    raise SystemExit(f"no bookmark {title!r} in {pdf}")


def main() -> None:
    if shutil.which("pdftoppm") is None:
        raise SystemExit("pdftoppm is needed (Debian: apt-get install poppler-utils)")
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        questc = [sys.executable, "-m", "questc"]
        subprocess.run(
            questc + ["build", str(QUESTS / "three_seals.quest"), "--only", "pdf,play", "-o", str(folder)],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            questc
            + [
                "guide",
                str(QUESTS),
                "-o",
                str(folder / "guide.pdf"),
                "--two-sided",
                "--title",
                "The Shipped Quests",
                "--author",
                "questc examples",
                "--date",
                "2026",
            ],
            check=True,
            capture_output=True,
        )
        pdfs = {
            "sheet": folder / "three_seals.pdf",
            "guide": folder / "guide.pdf",
            "play": folder / "three_seals-print-and-play.pdf",
        }
        for name, (kind, wanted) in PICTURES.items():
            pdf = pdfs[kind]
            numbers = []
            for page in wanted:
                if page == "index":
                    numbers.append(find_page(pdf, "Index"))
                elif page == "tokens":
                    from pypdf import PdfReader

                    count = len(PdfReader(str(pdf)).pages)
                    numbers.append(
                        next(
                            n
                            for n in range(count, 0, -1)
                            if "Tokens and markers" in PdfReader(str(pdf)).pages[n - 1].extract_text()
                        )
                    )
                elif isinstance(page, str):
                    numbers.append(find_page(pdf, page))
                else:
                    numbers.append(page)
            join(pages(pdf, folder, numbers), OUT / name)
            print(f"wrote {(OUT / name).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
