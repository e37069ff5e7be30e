"""The language server's incremental parse (questc.syntax.incremental) gives what a full parse
gives: the same tree, node for node and span for span, the same comments and the same
diagnostics, after every edit of a random walk over the shipped quests and generated maps,
and after the edits it must not take in part (strings left open, braces lost, a second header).
It also takes in part the edits it is for: typing in a statement, a line added or removed."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from questc.api import Options, check_source
from questc.syntax import parse_source
from questc.syntax.incremental import IncrementalParser

REPO = Path(__file__).resolve().parents[1]
QUESTS = REPO / "quests"
FILE = "edited.quest"


def _generated(cells: int) -> str:
    sys.path.insert(0, str(REPO / "bench"))
    from dungeon import dungeon

    return dungeon(cells)[0]


def _same(parser: IncrementalParser, text: str) -> None:
    got, want = parser.parse(text), parse_source(text, FILE)
    assert got.diagnostics == want.diagnostics
    assert got.comments == want.comments
    assert got.tree == want.tree
    if want.tree is not None:  # record equality reads every field, spans included; the header too
        assert got.tree.span == want.tree.span and got.tree.header == want.tree.header


# Random edits, most of them the ones a writer makes (a letter typed into a name or a string, a
# digit into a number, a line added, removed or repeated, a comment, a blank line), some of them
# anything at all (a character typed or deleted anywhere, a quote, a brace, a backslash).
_ANYTHING = list('abz09,.:;{}"#\\ \n\t\f\r') + ['"""', "quest", "\n}\n", "\r\n", "piece R9 room_4x4 at 40,40\n"]


def _edit(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.2:
        spots = [m.start() + rng.randrange(1, len(m.group())) for m in re.finditer(r'"[^"\n]+"', text)]
        if spots:
            at = rng.choice(spots)
            return text[:at] + rng.choice("ab ") + text[at:]
    if roll < 0.3:
        spots = [m.end() for m in re.finditer(r"\b[A-Za-z_][A-Za-z0-9_]*", text)]
        if spots:
            at = rng.choice(spots)
            return text[:at] + rng.choice("xy_") + text[at:]
    if roll < 0.4:
        spots = [m.start() + 1 for m in re.finditer(r"[0-9]", text)]
        if spots:
            at = rng.choice(spots)
            return text[:at] + rng.choice("0123") + text[at:]
    lines = text.split("\n")
    if roll < 0.5:
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if roll < 0.6:
        lines.insert(rng.randrange(len(lines) + 1), lines[rng.randrange(len(lines))])
        return "\n".join(lines)
    if roll < 0.7:
        at = rng.choice([m.start() for m in re.finditer("\n", text)] or [len(text)])
        return text[:at] + rng.choice([" # a note", "\n", "\n\n  ", ";", "  ", "\n# a line", "\\\n"]) + text[at:]
    at = rng.randrange(len(text) + 1)
    if roll < 0.85:
        return text[:at] + text[at + rng.randrange(1, 4) :]
    return text[:at] + rng.choice(_ANYTHING) + text[at:]


def _walk(text: str, steps: int, seed: int) -> IncrementalParser:
    """`steps` random edits, each of the last sound text (a version without syntax diagnostics);
    after one that breaks the quest, mostly that sound text again (as a writer's next keystrokes
    usually mend it), else the next edit comes straight after the broken version."""
    rng = random.Random(seed)
    parser = IncrementalParser(FILE)
    _same(parser, text)
    sound = text
    for _ in range(steps):
        edited = _edit(rng, sound)
        _same(parser, edited)
        # A form feed or a line continuation makes every later version a full parse: not a text
        # to walk on from (the walk would test parse_source against itself).
        if not parse_source(edited, FILE).diagnostics and not re.search(r"\f|\\\r?\n", edited):
            sound = edited
        elif rng.random() < 0.8:
            _same(parser, sound)
    return parser


def test_a_random_walk_over_a_shipped_quest():  # the fast run's share; the slow run walks them all
    parser = _walk((QUESTS / "chandlers_cellar.quest").read_text(encoding="utf-8"), 25, seed=1)
    assert parser.partial_parses >= 10, (parser.partial_parses, parser.full_parses)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.stem for p in QUESTS.glob("*.quest")))
def test_random_walks_over_every_shipped_quest(name):
    parser = _walk((QUESTS / f"{name}.quest").read_text(encoding="utf-8"), 150, seed=len(name))
    assert parser.partial_parses >= 20, (parser.partial_parses, parser.full_parses)


@pytest.mark.slow
def test_a_random_walk_over_a_generated_map():
    parser = _walk(_generated(600), 120, seed=7)
    assert parser.partial_parses >= 20, (parser.partial_parses, parser.full_parses)


QUEST = '''# A quest to edit.
quest "Edited" {
  id edited
  players 2..4
  intro """
    Words.
  """
}
piece R1 room_4x4 at 0,0
piece C1 corridor_2x4 at 4,1 turn 90
door d between R1 C1

area A "Start" start {
  pieces R1
  monster beastman master at R1:1,1 # the guard
  obstacle rubble at 2,2..3,3
}
area B "End" { pieces C1; chest gold at 5,2 }
victory heroes when revealed B and not killed boss
'''

# (what is replaced, by what, whether the edit is parsed in part): each edit of QUEST alone. Its undo
# is always parsed in part: against QUEST or the edited version, whichever was parsed last sound.
EDITS = [
    ('"Start"', '"Startx"', True),  # a letter in a name for players
    ("at 0,0", "at 0,10", True),  # a digit in a point
    ("# the guard", "# the guards", True),  # a comment inside a statement
    ("# A quest", "# A quest to edit\n# and more", True),  # a comment above everything
    ("door d between R1 C1\n", "door d between R1 C1\ndoor e between R1 C1\n", True),  # a statement added
    ("door d between R1 C1\n", "", True),  # a statement removed
    ("\n\narea A", "\n  \n\narea A", True),  # blank lines between statements
    ("when revealed B", "when revealed B # won", True),  # the last statement and the file's end
    # the last statement removed: where the file now ends is a token before the region, not known
    ("\nvictory heroes when revealed B and not killed boss\n", "\n", False),
    ("# A quest to edit.\n", "", True),  # the file's first token removed
    ("turn 90", "turn 90; piece C2 corridor_2x4 at 8,1", True),  # two statements on a line
    ('"Start"', '"Start', False),  # a string left open
    ('"""\n    Words.', '"""\n    Words."""', False),  # a long string closed early: the rest opens
    ("  obstacle rubble at 2,2..3,3\n}", "  obstacle rubble at 2,2..3,3\n", False),  # a brace lost
    ("piece R1", 'quest "Second" { id second }\npiece R1', False),  # a second header
    ('quest "Edited"', 'piece R0 room_4x4 at 9,9\nquest "Edited"', False),  # a statement before the header
    ("door d between R1 C1", "door d between R1 C1 \\", False),  # continued into the blank line after
    ("door d between R1 C1\n", "door d between R1 C1\n\\\n", False),  # a blank line continued
    ("\n\narea A", "\n\f\narea A", False),  # a form feed between two line breaks
    ("at 4,1", "at 4,99999999999", False),  # a number out of range (Q006)
    ("at 0,0", "at", False),  # a syntax error
]


@pytest.mark.parametrize(("old", "new", "in_part"), EDITS, ids=[f"{i}" for i in range(len(EDITS))])
def test_an_edit_and_its_undo(old, new, in_part):
    assert QUEST.count(old) == 1, old
    edited = QUEST.replace(old, new)
    parser = IncrementalParser(FILE)
    _same(parser, QUEST)
    _same(parser, edited)
    assert parser.partial_parses == (1 if in_part else 0)
    _same(parser, QUEST)
    assert parser.partial_parses == in_part + 1


def test_the_keystroke_that_mends_a_statement_is_parsed_in_part():
    """A quote deleted, then typed again after another letter: the broken version is parsed whole
    (its Q002 needs the whole parse), the mended one against the last sound version."""
    parser = IncrementalParser(FILE)
    for text in (QUEST, QUEST.replace('"Start"', '"Start'), QUEST.replace('"Start"', '"Starts"')):
        _same(parser, text)
    assert (parser.full_parses, parser.partial_parses) == (2, 1)


def test_windows_line_ends():
    windows = QUEST.replace("\n", "\r\n")
    parser = IncrementalParser(FILE)
    for text in (windows, windows.replace('"End"', '"Ends"'), windows.replace("at 0,0\r\n", "at 0,0\r\n\r\n"), windows):
        _same(parser, text)
    assert parser.partial_parses == 3


def test_statements_out_of_the_edit_are_reused():
    parser = IncrementalParser(FILE)
    before = parser.parse(QUEST).tree
    after = parser.parse(QUEST.replace('"End"', '"The End"')).tree
    assert before is not None and after is not None
    assert after.header is before.header and after.items[:4] == before.items[:4]
    assert all(a is b for a, b in zip(after.items[:4], before.items[:4]))  # before the edit: the same nodes
    moved, was = after.items[5].span, before.items[5].span  # after it: moved by the 4 characters typed
    assert (moved.start, moved.line, moved.column) == (was.start + 4, was.line, was.column)
    assert parser.last_region == len('area B "The End" { pieces C1; chest gold at 5,2 }')


def test_a_byte_order_mark_and_an_empty_text():
    """The spans after a byte-order mark are those of the text after it (as parse_source's)."""
    parser = IncrementalParser(FILE)
    for text in (QUEST, "\ufeff" + QUEST, "\ufeff" + QUEST.replace("B", "BB"), QUEST, "", QUEST):
        _same(parser, text)
    assert parser.full_parses == 2  # the first, and the empty text (Q005)


def test_the_servers_checks_give_a_full_checks_diagnostics():
    """check_source with the incremental parse (what the server runs) against check_source alone,
    on edits that change the diagnostics: a name unknown, a cell off the map, and back."""
    text = (QUESTS / "three_seals.quest").read_text(encoding="utf-8")
    options = Options(verbose=True)
    parser = IncrementalParser("three_seals.quest")
    versions = [
        text,
        text.replace("pieces R1\n", "pieces R1, R99\n", 1),
        text,
        text.replace("treasure vitality at 0,10", "treasure vitality at 0,40", 1),
        text.replace("treasure vitality at 0,10", "treasure vitality at 0,40 # moved", 1),
        text,
    ]
    for version in versions:
        kept = check_source(version, "three_seals.quest", options, parsed=parser.parse(version))
        fresh = check_source(version, "three_seals.quest", options)
        assert kept.all_diagnostics == fresh.all_diagnostics
        assert kept.diagnostics == fresh.diagnostics
    assert parser.partial_parses == len(versions) - 1
    assert len({len(check_source(v, "t.quest", options).all_diagnostics) for v in versions}) > 1


def test_a_partial_parse_leaves_no_garbage_for_the_collector():
    """The language server leaves Python's collector off while the writer types: what a keystroke's
    parse makes must go when unused, without a collection (copiers made per parse were cycles)."""
    import gc

    parser = IncrementalParser(FILE)
    parser.parse(QUEST)
    parser.parse(QUEST.replace('"End"', '"Ends"'))  # the kinds of node met once, before counting
    gc.collect()
    for text in (QUEST, QUEST.replace('"End"', '"Ends"'), QUEST.replace("at 0,0", "at 0,1")):
        parser.parse(text)
        assert gc.collect() == 0
    assert parser.partial_parses == 4
