"""Q303/Q304 and `open DOOR` effects: a rune door an effect the heroes can run opens needs no key."""

from __future__ import annotations

from helpers import assert_codes, span_text

HEAD = 'quest "T" {\n  conquest 3\n}\n'
MAP = HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor gate between R1 R2 rune yellow\n"


def quest(start: str = "", beyond: str = "", tail: str = "") -> str:
    return (
        MAP
        + 'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
        + start
        + "}\n"
        + 'area B "Beyond" {\n  pieces R2\n'
        + beyond
        + "}\n"
        + tail
        + "victory heroes when revealed B\n"
    )


def test_q304_a_rune_door_nothing_opens():
    """The door is a warning; the victory it makes impossible is an error (Q307), labelled at the door."""
    result = assert_codes(quest(), "Q304", "Q307")
    d, victory = sorted(result.diagnostics, key=lambda d: d.code)
    assert span_text(result.source, d.span) == "gate"
    assert "`open gate`" in d.help and "`unlock yellow`" in d.help
    assert span_text(result.source, victory.span) == "revealed B"
    assert "behind the yellow rune door `gate`, and nothing on the map unlocks yellow" in victory.message
    assert [span_text(result.source, label.span) for label in victory.labels] == ["heroes", "gate"]


def test_q304_alone_when_no_victory_needs_what_the_door_hides():
    assert_codes(quest().replace("victory heroes when revealed B", "victory heroes when revealed A"), "Q304")


def test_no_q304_when_an_encounter_the_heroes_reach_opens_the_door():
    assert_codes(quest(start="  encounter lever at 2,2 { open gate }\n"))


def test_no_q304_when_a_round_trigger_opens_the_door():
    assert_codes(quest(tail="on round 3 { open gate }\n"))


def test_no_q304_when_an_effect_unlocks_the_colour():
    assert_codes(quest(start="  encounter lever at 2,2 { unlock yellow }\n"))


def test_q304_still_when_the_effect_opens_or_closes_another_door():
    source = (
        HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\npiece R3 room_4x4 at 0,4\n"
        "door gate between R1 R2 rune yellow\ndoor side between R1 R3\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; encounter lever at 2,2 { open side; close gate } }\n'
        'area B "Beyond" { pieces R2 }\narea C "Side" { pieces R3 }\nvictory heroes when revealed B\n'
    )
    result = assert_codes(source, "Q304", "Q307")
    assert span_text(result.source, next(d for d in result.diagnostics if d.code == "Q304").span) == "gate"


def test_q303_when_the_only_effect_that_opens_the_door_lies_behind_it():
    result = assert_codes(quest(beyond="  encounter lever at 6,2 { open gate }\n"), "Q303")
    (d,) = result.diagnostics
    assert span_text(result.source, d.span) == "gate"
    (label,) = d.labels
    assert span_text(result.source, label.span) == "open gate"
    assert label.message == "the only `open gate` effect is behind it"


def test_q301_under_reveal_door_speaks_of_doors_not_sight():
    """With `reveal door` sight reveals nothing: "no hero can ever see into this area" was wrong."""
    sealed = (
        'quest "T" {\n  conquest 3\n  reveal door\n}\npiece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 9,0\n'
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Far" { pieces R2 }\n'
        "victory heroes when revealed A\n"
    )
    (d,) = assert_codes(sealed, "Q301").diagnostics
    assert d.label == "no door into this area ever opens, and no hero can step into it"
    (d,) = assert_codes(sealed.replace("  reveal door\n", ""), "Q301").diagnostics
    assert d.label == "no hero can ever see into this area"
