"""The language server's copy of the text agrees with the editor's, whatever the characters.

LSP ends lines at `\\n`, `\\r\\n` and a lone `\\r` only, and counts columns in UTF-16 code
units. U+2028/U+2029, a form feed, NEL, U+001C-U+001E (all line breaks to Python's
`str.splitlines`) are ordinary characters on a line; an emoji is two units. The model
below is the editor's, written from the specification and nothing else; the server's
copy after random edits must be the same text, and Format Document must format that
text and no other.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import accept_registrations, change, ident, open_quest, replace

from questc.server.text import LineIndex, apply_change

module_loop = pytest.mark.asyncio(loop_scope="module")
TESTS = Path(__file__).resolve().parent

# Every character some library takes for a line break, and characters of two UTF-16 units.
TRICKY = [
    "\u2028",
    "\u2029",
    "\x0c",
    "\x0b",
    "\x85",
    "\x1c",
    "\x1d",
    "\x1e",
    "\r",
    "\r\n",
    "\n",
    "😀",
    "𝔸",
    "é",
    "ß",
    "\t",
    "\ufeff",
]


class EditorText:
    """The text as an LSP client holds it: lines split at \\n, \\r\\n, \\r; columns in UTF-16 units."""

    def __init__(self, text: str):
        self.text = text

    def lines(self) -> list[tuple[int, int]]:
        """(start, end) of each line, the end before its line break."""
        out, start = [], 0
        for m in re.finditer(r"\r\n|\r|\n", self.text):
            out.append((start, m.start()))
            start = m.end()
        out.append((start, len(self.text)))
        return out

    def offset(self, position: types.Position) -> int:
        start, end = self.lines()[position.line]
        units = 0
        for i in range(start, end):
            if units >= position.character:
                return i
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
        return end

    def position(self, offset: int) -> types.Position:
        for number, (start, end) in enumerate(self.lines()):
            if start <= offset <= end:
                units = sum(2 if ord(ch) > 0xFFFF else 1 for ch in self.text[start:offset])
                return types.Position(number, units)
        raise ValueError(offset)

    def random_position(self, rng: random.Random) -> types.Position:
        lines = self.lines()
        number = rng.randrange(len(lines))
        start, end = lines[number]
        # A place between characters (never inside an emoji's two units), or the line's end.
        cut = rng.randint(start, end)
        return self.position(cut)

    def replace(self, start: types.Position, end: types.Position, new: str) -> None:
        a, b = self.offset(start), self.offset(end)
        self.text = self.text[:a] + new + self.text[b:]


BASE = (
    'quest "Vats" {\n  id vats\n}\n# Vats of cold wax\u2028stand here.\n'
    'piece R1 room_4x4 at 0,0\narea A "Entry" start {\n  pieces R1\n  note "a\x0cb\x85c 😀"\n}\n'
)


def test_the_index_agrees_with_the_editor_on_every_tricky_character():
    rng = random.Random(27)
    for _ in range(300):
        text = "".join(rng.choice(TRICKY + ["ab", "x", " "]) for _ in range(rng.randrange(0, 30)))
        editor, index = EditorText(text), LineIndex(text)
        assert index.line_count == len(editor.lines())
        for number, (start, end) in enumerate(editor.lines()):
            assert index.line_text(number) == text[start:end]
        for offset in {s for s, _ in editor.lines()} | {e for _, e in editor.lines()}:
            assert index.position(offset) == editor.position(offset)
            assert index.offset(editor.position(offset)) == offset


def test_random_edits_keep_one_text():
    rng = random.Random(2028)
    text = BASE
    editor = EditorText(text)
    for _ in range(2000):
        start = editor.random_position(rng)
        end = start if rng.random() < 0.5 else editor.random_position(rng)
        if (end.line, end.character) < (start.line, start.character):
            start, end = end, start
        new = "".join(rng.choice(TRICKY + ["word", " "]) for _ in range(rng.randrange(0, 3)))
        text = apply_change(text, replace(start, end, new))
        editor.replace(start, end, new)
        assert text == editor.text


def test_a_position_past_the_end_of_a_line_is_its_end():
    """LSP: a character past the line's length means the line's end (never the next line)."""
    text = "ab\u2028cd\r\nef"
    index = LineIndex(text)
    assert index.offset(types.Position(0, 99)) == text.index("\r")
    assert index.offset(types.Position(1, 99)) == len(text)
    assert index.offset(types.Position(9, 0)) == len(text)


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, str(TESTS / "server_faulty.py")])
)
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
        )
    )
    yield
    await lsp_client.shutdown_session()


async def server_text(client: LanguageClient, uri: str) -> str:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams("test.text", [uri]))


@module_loop
async def test_typing_after_a_line_separator_lands_where_the_editor_has_it(client: LanguageClient, tmp_path: Path):
    """The issue's case: typing at the end of a line longer than the one above, below a U+2028."""
    text = 'quest "Vats" {\n  id vats\n}\n# Vats of cold wax\u2028and the rest.\n# Short\n'
    path = tmp_path / "vats.quest"
    path.write_text(text, encoding="utf-8")
    uri, _ = await open_quest(client, path, text)
    editor = EditorText(text)
    line = 3
    end = types.Position(line, len(editor.text.split("\n")[line]))
    editor.replace(end, end, " It smells.")
    await change(client, uri, 2, [replace(end, end, " It smells.")])
    assert await server_text(client, uri) == editor.text
    assert "# Vats of cold wax\u2028and the rest. It smells.\n" in editor.text
    # Format Document formats this very text.
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(ident(uri), types.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    from questc.fmt import format_source

    formatted = format_source(editor.text, str(path)).output
    if formatted == editor.text:
        assert not edits
    else:
        (edit,) = edits
        assert edit.new_text == formatted and "It smells." in edit.new_text


@module_loop
async def test_random_edits_through_a_real_client(client: LanguageClient, tmp_path: Path):
    rng = random.Random(30)
    path = tmp_path / "tricky.quest"
    path.write_text(BASE, encoding="utf-8")
    uri, _ = await open_quest(client, path, BASE)
    editor = EditorText(BASE)
    version = 1
    for round_ in range(30):
        changes = []
        for _ in range(rng.randrange(1, 5)):  # several changes in one notification, applied in order
            start = editor.random_position(rng)
            end = start if rng.random() < 0.6 else editor.random_position(rng)
            if (end.line, end.character) < (start.line, start.character):
                start, end = end, start
            new = "".join(rng.choice(TRICKY + ["ab", " "]) for _ in range(rng.randrange(0, 3)))
            editor.replace(start, end, new)
            changes.append(replace(start, end, new))
        version += 1
        await change(client, uri, version, changes)
        assert await server_text(client, uri) == editor.text, f"round {round_}"
        if round_ % 5 == 4:
            await formatting_is_of(client, uri, editor.text, path)


async def formatting_is_of(client: LanguageClient, uri: str, text: str, path: Path) -> str:
    """Format Document: the formatted current text over the whole document, nothing when it is formatted
    already, an error saying why when it cannot be formatted; never any other text. Which it was, out."""
    from pygls.exceptions import JsonRpcException

    from questc.fmt import format_source
    from questc.server.text import BOM

    bom = BOM if text.startswith(BOM) else ""
    try:
        expected = format_source(text[len(bom) :], str(path)).output
    except Exception:  # noqa: BLE001 - the formatter refuses (its meaning would change): the server says so too
        expected = None
    try:
        edits = await client.text_document_formatting_async(
            types.DocumentFormattingParams(ident(uri), types.FormattingOptions(tab_size=2, insert_spaces=True))
        )
    except JsonRpcException as error:
        assert expected is None and "questc fmt" in str(error), error
        return "refused"
    assert expected is not None
    if not edits:
        assert expected == text[len(bom) :]
        return "formatted already"
    (edit,) = edits
    editor = EditorText(text)
    assert editor.offset(edit.range.start) == 0 and editor.offset(edit.range.end) == len(text)
    assert edit.new_text == bom + expected
    return "formatted"


@pytest.mark.slow
@module_loop
async def test_format_document_after_edits_is_the_formatted_current_text(client: LanguageClient, tmp_path: Path):
    """Edits that keep the quest whole (tricky characters in its comment and its note, indentation and
    trailing blanks) and edits that break it, each followed by Format Document."""
    rng = random.Random(2029)
    path = tmp_path / "format.quest"
    path.write_text(BASE, encoding="utf-8")
    uri, _ = await open_quest(client, path, BASE)
    editor = EditorText(BASE)
    outcomes = set()
    version = 1
    for _ in range(40):
        lines = editor.lines()
        number = rng.randrange(len(lines))
        start, end = lines[number]
        line = editor.text[start:end]
        breaks = rng.random() < 0.2
        if breaks:  # something that breaks the syntax (taken back after the Format Document)
            where, new = editor.position(start), rng.choice(["{", '"', "piece"])
        elif line.lstrip().startswith("#") or "note" in line:
            cut = rng.randint(start + line.index("#" if "#" in line else '"') + 1, end - (0 if "#" in line else 1))
            where, new = editor.position(cut), rng.choice(TRICKY[:9] + ["😀", "𝔸", "é"])
        else:
            where, new = editor.position(rng.choice([start, end])), " " * rng.randrange(1, 4)
        editor.replace(where, where, new)
        version += 1
        await change(client, uri, version, [replace(where, where, new)])
        outcome = await formatting_is_of(client, uri, editor.text, path)
        outcomes.add(outcome)
        if outcome == "formatted" and rng.random() < 0.5:  # the editor applies the edit, as Format Document does
            from questc.fmt import format_source

            whole_range = (editor.position(0), editor.position(len(editor.text)))
            editor.replace(*whole_range, format_source(editor.text, str(path)).output)
            version += 1
            await change(client, uri, version, [replace(*whole_range, editor.text)])
        if breaks:
            after = editor.position(editor.offset(where) + len(new))
            editor.replace(where, after, "")
            version += 1
            await change(client, uri, version, [replace(where, after, "")])
    assert outcomes == {"refused", "formatted", "formatted already"}
