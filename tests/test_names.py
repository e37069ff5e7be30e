"""Names for players: `door red_seal "The Red Seal" ...`, stairs, relics and encounters print a name,
never an identifier; without one, the identifier made readable. The formatter keeps the names, the
engine JSON carries them, the map, the sheet and the legend print them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers import compile_source
from pypdf import PdfReader

from questc.api import check_source
from questc.draw import draw_map
from questc.emit import pdf
from questc.emit.engine_json import engine_json
from questc.fmt import format_source

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
# The sheet tests' everything.quest with names for players on some things and none on others.
NAMED = (
    (SHEETS / "everything.quest")
    .read_text(encoding="utf-8")
    .replace("door gilded between", 'door gilded "The Gilded Gate" between')
    .replace("stairs green at", 'stairs green "The Green Stair" at')
    .replace("relic dawn_shield at", 'relic dawn_shield "The Shield of Dawn" at')
    .replace("encounter altar at", 'encounter altar "The Ash Altar" at')
)


def compiled():
    return compile_source(NAMED, "named.quest")


def test_the_model_knows_each_name_for_players():
    model = compiled().model
    assert model.doors["gilded"].display == "The Gilded Gate"
    assert model.doors["hall"].display == "hall"  # no name: the identifier made readable
    assert model.encounters["altar"].display == "The Ash Altar"
    assert model.stairs[0].display == "The Green Stair"
    relics = {m.variant: m.display for m in model.markers if m.kind == "relic"}
    assert relics == {"dawn_shield": "The Shield of Dawn"}
    plain = check_source((SHEETS / "everything.quest").read_text(encoding="utf-8")).model
    assert plain.stairs[0].display == "green stairs"
    assert [m.display for m in plain.markers if m.kind == "relic"] == [None]


def test_the_formatter_keeps_the_names():
    formatted = format_source(NAMED).output
    for line in (
        'door gilded "The Gilded Gate" between C1 R2 rune yellow',
        'stairs green "The Green Stair" at',
        'relic dawn_shield "The Shield of Dawn" at 2,0',
        'encounter altar "The Ash Altar" at 10,5 {',
    ):
        assert line in formatted, line
    assert format_source(formatted).output == formatted


def test_the_json_carries_the_names():
    data = json.loads(engine_json(compiled()))
    assert {d["id"]: d["name"] for d in data["doors"]} == {
        "hall": "hall",
        "gilded": "The Gilded Gate",
        "crypt": "crypt",
    }
    assert data["encounters"][0]["name"] == "The Ash Altar"
    assert data["stairs"][0]["name"] == "The Green Stair"
    assert {m["relic"]: m["name"] for m in data["markers"] if m["kind"] == "relic"} == {
        "dawn_shield": "The Shield of Dawn"
    }


@pytest.mark.slow
def test_map_and_sheet_print_names_never_identifiers():
    result = compiled()
    md = draw_map(result, 24)
    words = " ".join(label.text for label in md.labels) + " " + " ".join(e.label for e in md.legend)
    for name in ("The Gilded Gate", "hall", "The Ash Altar", "The Green Stair", "The Shield of Dawn"):
        assert name in words, name
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.render_pdf(result))).pages)
    for identifier in ("dawn_shield", "gilded", "altar (area"):
        assert identifier not in text, identifier
    assert "The Ash Altar" in text and "The Gilded Gate" in text and "The Shield of Dawn" in text
    assert "a hero triggers the Ash Altar (an encounter)" in text
