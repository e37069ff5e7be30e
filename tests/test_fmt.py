"""`questc fmt`: the canonical layout, comments kept, idempotent, the same quest after formatting."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE

from questc.api import check_source
from questc.fmt import format_source, without_spans
from questc.fmt.printer import quote_long, quote_short
from questc.syntax import parse_source
from questc.syntax.transform import dedent_long, unescape

ROOT = Path(__file__).resolve().parent.parent
CASES = ACCEPTANCE


def quests() -> list[Path]:
    files = sorted((ROOT / "quests").rglob("*.quest"))
    if CASES.is_dir():
        files += sorted(CASES.glob("*.quest"))
    return [
        f
        for f in files
        if not any(d.severity.value == "error" for d in parse_source(f.read_text(encoding="utf-8"), str(f)).diagnostics)
    ]


@pytest.mark.parametrize("path", quests(), ids=lambda p: p.name)
def test_round_trip_and_idempotence(path):
    source = path.read_text(encoding="utf-8")
    once = format_source(source, str(path)).output
    assert once is not None
    assert format_source(once, str(path)).output == once, "formatting twice changed the text"
    before, after = parse_source(source, str(path)), parse_source(once, str(path))
    assert without_spans(before.tree) == without_spans(after.tree)
    assert sorted(t.rstrip() for _, t in before.comments) == sorted(t for _, t in after.comments)
    codes = lambda text: [d.code for d in check_source(text, str(path)).all_diagnostics]  # noqa: E731
    assert codes(source) == codes(once)


MESSY = textwrap.dedent('''\
    # leading comment

    quest "The \\"Test\\"" {   # opener
      conquest 3  # trailing
      # about the id
      id test ; edition first
      intro """
          Text with "quotes" and \\"""three\\""".
            indented more

          after a blank line
      """
    }
    piece R1 room_4x4 at 0,0 turn 0
    piece C1 corridor_2x2 at 4,1


    piece E1 dead_end at 6,1
    door d1 between R1 C1 # a door
    area A "Hall" start { pieces R1; glyph at 0,0 active }  # one-liner
    area B "Alcove" {
      pieces C1, E1
      encounter e at C1:0,0 { read "x\\ty" ; conquest 2 }
      monster beastman master at 4,1 4,2 players 3..3
      obstacle rubble at 2,3..2,3 2,4..3,5
      # end of B
    }
    chests { silver 1: silver 1, conquest 2 }
    victory heroes "Slay" when (revealed A or revealed B) and not (opened d1 and round >= 3) or conquest <= 0
    victory overlord when ((revealed A or revealed B) or triggered e)
    # the end
''')

CANONICAL = textwrap.dedent('''\
    # leading comment

    quest "The \\"Test\\"" {  # opener
      # about the id
      id test
      edition first
      conquest 3  # trailing
      intro """
        Text with "quotes" and \\"""three\\""".
          indented more

        after a blank line
      """
    }

    piece R1 room_4x4 at 0,0
    piece C1 corridor_2x2 at 4,1

    piece E1 dead_end at 6,1

    door d1 between R1 C1  # a door

    area A "Hall" start {
      pieces R1
      glyph at 0,0 active
    }  # one-liner

    area B "Alcove" {
      pieces C1, E1
      encounter e at C1:0,0 {
        read "x\\ty"
        conquest +2
      }
      monster beastman master at 4,1 4,2 players 3
      obstacle rubble at 2,3 2,4..3,5
      # end of B
    }

    chests {
      silver 1: silver, conquest 2
    }

    victory heroes "Slay" when (revealed A or revealed B) and not (opened d1 and round >= 3) or conquest 0
    victory overlord when (revealed A or revealed B) or triggered e
    # the end
''')


def test_canonical_layout():
    result = format_source(MESSY)
    assert result.output == CANONICAL
    assert result.changed and not format_source(CANONICAL).changed


def test_syntax_errors_leave_the_text_alone():
    result = format_source('quest "Q" {\n  conquest 3\n}\npiece R1 at 0,0\n')
    assert result.output is None and [d.code for d in result.diagnostics] == ["Q001"]
    assert not result.changed


def test_crlf_and_byte_order_mark():
    source = '\ufeffquest "Q" {\r\n  conquest 3   # three\t\r\n  intro """\r\n    a\r\n  """\r\n}\r\n'
    assert format_source(source).output == 'quest "Q" {\n  conquest 3  # three\n  intro """\n    a\n  """\n}\n'


@pytest.mark.parametrize("value", ['a "b" c', "back\\slash", "end\\", "tab\\t", "new\nline", '\\"', "\\\n", ""])
def test_short_strings_round_trip(value):
    literal = quote_short(value)
    assert unescape(literal[1:-1]) == value


@pytest.mark.parametrize("value", ['say """hi"""', 'quote"', "a\n\n  b\nc", "\\n literally", '""""', "x\\"])
def test_long_strings_round_trip(value):
    literal = quote_long(value, 1)
    assert literal.startswith('"""\n') and literal.endswith('\n  """')
    assert dedent_long(unescape(literal[3:-3])) == value
    parsed = parse_source(f'quest "Q" {{\n  conquest 1\n  intro {literal}\n}}\n')
    assert not parsed.diagnostics and parsed.tree.header.get("intro").value.value == value


# ---- the command ----------------------------------------------------------------------------


def test_fmt_command(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    messy, clean, broken = tmp_path / "messy.quest", tmp_path / "clean.quest", tmp_path / "broken.quest"
    messy.write_text(MESSY, encoding="utf-8")
    clean.write_text(CANONICAL, encoding="utf-8")
    broken.write_text('quest "Q" {\n  conquest 3\n}\npiece R1 at 0,0\n', encoding="utf-8")
    runner = CliRunner()

    check = runner.invoke(cli, ["fmt", "--check", "messy.quest", "clean.quest"])
    assert check.exit_code == 1 and "would reformat messy.quest" in check.output
    assert messy.read_text(encoding="utf-8") == MESSY

    diff = runner.invoke(cli, ["fmt", "--diff", "messy.quest"])
    assert diff.exit_code == 1 and "--- a/messy.quest" in diff.output and "+  edition first" in diff.output
    assert messy.read_text(encoding="utf-8") == MESSY

    done = runner.invoke(cli, ["fmt", "messy.quest", "clean.quest"])
    assert done.exit_code == 0 and messy.read_text(encoding="utf-8") == CANONICAL
    assert runner.invoke(cli, ["fmt", "--check", "."]).exit_code == 1  # broken.quest is in the folder

    failed = runner.invoke(cli, ["fmt", "broken.quest"])
    assert failed.exit_code == 1 and "syntax errors" in failed.output and "Q001" in failed.output
    assert broken.read_text(encoding="utf-8") == 'quest "Q" {\n  conquest 3\n}\npiece R1 at 0,0\n'
    assert runner.invoke(cli, ["fmt", "--check", "messy.quest", "clean.quest"]).exit_code == 0
