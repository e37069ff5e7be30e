"""Words far longer than a map holds: a title of 80,000 characters, a door name of 10,000, a
title of 300 characters and no `id`. Each builds, in bounded time and memory, with its words
cut (with an ellipsis) where the map has no room; the sheet's text keeps them whole."""

from __future__ import annotations

import io
import time

import pytest

from questc.api import check_source
from questc.draw.metrics import shortened, text_width
from questc.model.resolve import default_id


def quest(title: str = "Door", door: str = "Door", header: str = "  id q\n") -> str:
    return (
        f'quest "{title}" {{\n{header}  conquest 5\n}}\n'
        "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"
        f'door d "{door}" between R1 R2\n'
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        'area B "Room" { pieces R2 }\nvictory heroes when revealed B\n'
    )


@pytest.mark.slow
def test_an_80000_character_title_makes_an_ordinary_picture():
    """It made a picture of 97 million pixels (a decompression-bomb error past 178 million)."""
    from PIL import Image

    from questc.emit.png import render_png

    result = check_source(quest(title="x" * 80_000), "q.quest")
    image = Image.open(io.BytesIO(render_png(result.compiled)))
    assert image.size[0] * image.size[1] < 5_000_000


def test_a_long_door_name_is_placed_in_bounded_time():
    """A 3,000-character door name took 51 s to place (the search grew with the square of its
    length); 10,000 ran past two minutes."""
    from questc.emit.png import render_png

    result = check_source(quest(door="ab " * 3400), "q.quest")
    started = time.process_time()
    render_png(result.compiled)
    assert time.process_time() - started < 10


def test_a_long_title_without_an_id_gives_a_file_name_that_fits():
    assert len(default_id("y" * 300)) == 80
    result = check_source(quest(title="y" * 300, header=""), "q.quest")
    assert result.model.id == "y" * 80


def test_shortened_words_fit_and_say_so():
    cut = shortened("a" * 500, 100, 8)
    assert cut.endswith("\u2026") and text_width(cut, 8) <= 100 < text_width(cut[:-1] + "aa\u2026", 8)
    assert shortened("Hall", 100, 8) == "Hall"
