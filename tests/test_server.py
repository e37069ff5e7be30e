"""`questc server` through a real LSP client (pytest-lsp) over stdio: every feature, as an editor uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import (
    SERVER_COMMAND,
    accept_registrations,
    apply_edits,
    change,
    ident,
    open_quest,
    position_of,
    replace,
    whole,
)

from questc.api import check_source
from questc.fmt import format_source

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUEST = """\
quest "Server Test" {
  id server_test
  expansions base
  conquest 5
}

piece R1 room_4x4 at 0,0
piece C1 corridor_2x4 at 4,1
piece R2 room_4x4 at 8,0

door d1 between R1 C1
door d2 between C1 R2

area A "Entry" start {
  pieces R1
  glyph at 1,1 active
  obstacle rubble at 0,3
  monster beastman at 3,1
}

area B "Hall" {
  pieces C1, R2
  named boss at 9,1
  encounter e1 at 5,1 {
    conquest 1
  }
}

named boss "The Boss" ogre {
  wounds +2
}

on killed boss {
  win heroes
}

victory heroes when killed boss
"""


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("quests")


async def opened(client, folder: Path, name: str, text: str = QUEST):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path)
    return uri, found, path


def lint_view(text: str, path: Path) -> list[tuple]:
    """What `questc lint` reports for the text: (code, line, column, end line, end column), 0-based like LSP."""
    result = check_source(text, str(path))
    return sorted(
        (d.code, d.span.line - 1, d.span.column - 1, d.span.end_line - 1, d.span.end_column - 1)
        for d in result.diagnostics
    )


def lsp_view(found) -> list[tuple]:
    return sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) for d in found
    )


# ---- diagnostics ------------------------------------------------------------------------


async def test_diagnostics_on_open_are_lints(client: LanguageClient, folder: Path):
    text = QUEST.replace("monster beastman", "monster beastmen").replace("door d2 between", "door d1 between")
    uri, found, path = await opened(client, folder, "open.quest", text)
    assert lsp_view(found) == lint_view(text, path)
    by_code = {d.code: d for d in found}
    assert "help: did you mean `beastman`?" in by_code["Q101"].message
    assert by_code["Q101"].source == "questc"
    assert by_code["Q101"].severity == types.DiagnosticSeverity.Error
    from questc.project import diagnostic_page

    if diagnostic_page("Q101"):  # an installed questc knows its documentation's address
        assert by_code["Q101"].code_description.href == diagnostic_page("Q101")
    duplicate = by_code["Q102"]
    related = duplicate.related_information
    assert related and related[0].message == "first defined here"
    assert related[0].location.uri == uri
    assert related[0].location.range.start == position_of(text, "d1")


async def test_unsaved_edits_are_checked(client: LanguageClient, folder: Path):
    uri, found, path = await opened(client, folder, "edits.quest")
    assert found == []
    at = position_of(QUEST, "ogre {")
    found = await change(client, uri, 2, [replace(at, types.Position(at.line, at.character + 4), "ogrr")])
    assert [d.code for d in found] == ["Q101"]
    assert found[0].range == types.Range(at, types.Position(at.line, at.character + 4))
    assert path.read_text(encoding="utf-8") == QUEST  # the file on disk was never the one checked
    found = await change(client, uri, 3, [replace(at, types.Position(at.line, at.character + 4), "ogre")])
    assert found == []


async def test_configuration_from_the_documents_folder(client: LanguageClient, folder: Path):
    text = QUEST.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes")  # suppresses nothing: Q601
    plain = folder / "plain"
    configured = folder / "configured"
    plain.mkdir()
    configured.mkdir()
    (configured / "questc.toml").write_text('ignore = ["Q601"]\n', encoding="utf-8")
    _, found, _ = await opened(client, plain, "q.quest", text)
    assert [d.code for d in found] == ["Q601"]
    _, found, _ = await opened(client, configured, "q.quest", text)
    assert found == []
    broken = folder / "broken"
    broken.mkdir()
    (broken / "questc.toml").write_text('ignore = ["Q104"]\n', encoding="utf-8")  # a reference code: refused
    _, found, _ = await opened(client, broken, "q.quest", text)
    assert found[0].code is None and "the configuration cannot be used" in found[0].message
    assert "Q104" in found[0].message and [d.code for d in found[1:]] == ["Q601"]


@pytest.mark.parametrize(
    "broken",
    [
        QUEST.replace('"The Boss"', '"The Boss'),  # a string never closed
        QUEST.replace("  wounds +2\n}", "  wounds +2\n"),  # a brace short
        QUEST.replace("  monster beastman at 3,1\n", "  monster beastman at 3,\n"),  # a point being typed
        QUEST + "area C {\n  treasure\n",  # a block being typed at the end
        "",  # an empty buffer
        '"""',  # nothing but an open string
    ],
)
async def test_half_typed_text_gives_diagnostics(client: LanguageClient, folder: Path, broken: str):
    uri, found, path = await opened(client, folder, f"broken{abs(hash(broken))}.quest", broken)
    assert found, "a broken quest must show what is wrong"
    assert lsp_view(found) == lint_view(broken, path)
    # ... and the server still answers everything on it
    end = position_of(broken + "\n", "\n", occurrence=broken.count("\n"))
    for request in (
        client.text_document_hover_async(types.HoverParams(ident(uri), end)),
        client.text_document_completion_async(types.CompletionParams(ident(uri), end)),
        client.text_document_document_symbol_async(types.DocumentSymbolParams(ident(uri))),
        client.text_document_folding_range_async(types.FoldingRangeParams(ident(uri))),
    ):
        await request
    # Formatting formats it, or says why it cannot: never an empty answer that hides the reason.
    from questc.fmt import format_source

    if format_source(broken).output is None:
        with pytest.raises(Exception, match="syntax errors"):
            await client.text_document_formatting_async(
                types.DocumentFormattingParams(ident(uri), types.FormattingOptions(2, True))
            )
    else:
        await client.text_document_formatting_async(
            types.DocumentFormattingParams(ident(uri), types.FormattingOptions(2, True))
        )


# ---- hover --------------------------------------------------------------------------------


async def hover_at(client, uri, text, needle, shift=0, occurrence=0) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(ident(uri), position_of(text, needle, occurrence, shift))
    )
    assert found is not None, f"no hover on {needle!r}"
    return found.contents.value


async def test_hover_on_a_cell(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "hover.quest")
    text = await hover_at(client, uri, QUEST, "3,1", shift=1)
    assert "cell 3,1" in text
    assert "piece **R1** (room_4x4)" in text
    assert 'area **A** "Entry"' in text
    assert "figures: beastman" in text
    assert "d1 on the east side" in text
    text = await hover_at(client, uri, QUEST, "0,3")
    assert "obstacle rubble" in text
    text = await hover_at(client, uri, QUEST, "9,1")
    assert "boss (named ogre)" in text
    text = await hover_at(client, uri, QUEST, "1,1 active")
    assert "glyph (active)" in text


async def test_hover_on_catalog_names(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "hover-catalog.quest")
    piece = await hover_at(client, uri, QUEST, "corridor_2x4", shift=3)
    assert "⇐ o o o o ⇒" in piece and "openings: west 0,0-0,1 (end); east 3,0-3,1 (end)" in piece
    monster = await hover_at(client, uri, QUEST, "ogre {")
    assert "footprint 2x2" in monster and "normal 2" in monster and "master 1" in monster and "base" in monster


async def test_hover_on_identifiers_and_codes(client: LanguageClient, folder: Path):
    text = QUEST.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes")
    uri, found, _ = await opened(client, folder, "hover-ident.quest", text)
    boss = await hover_at(client, uri, text, "boss", occurrence=2)  # `on killed boss`
    line = text.split("\n").index('named boss "The Boss" ogre {') + 1
    assert 'named boss "The Boss" ogre {' in boss and f"defined on line {line}; 3 references" in boss
    area = await hover_at(client, uri, text, "pieces C1", shift=7)
    assert "piece **C1**" in area and "corridor_2x4 (corridor), top-left 4,1, 8 cells; area B" in area
    from questc.rules import descriptor

    code = await hover_at(client, uri, text, "Q305", shift=2)
    assert "**Q305 " in code and descriptor("Q305").summary in code
    # the diagnostic reported there (Q601: the suppression is unused) is explained too
    assert [d.code for d in found] == ["Q601"] and descriptor("Q601").summary in code


# ---- completion -----------------------------------------------------------------------------


async def labels_at(client, uri, text, needle, shift=0) -> list[str]:
    found = await client.text_document_completion_async(
        types.CompletionParams(ident(uri), position_of(text, needle, shift=shift))
    )
    items = found.items if isinstance(found, types.CompletionList) else found
    return [item.label for item in items]


async def test_completion_by_context(client: LanguageClient, folder: Path):
    text = QUEST.replace(
        "  monster beastman at 3,1\n",
        "  monster beastman at 3,1\n  \n  monster \n  monster ogre at 2,2 facing \n  pieces \n",
    )
    text = text.replace("victory heroes when killed boss", "victory heroes when revealed \ndoor d3 at 3,3 east rune ")
    uri, _, _ = await opened(client, folder, "complete.quest", text)
    statements = await labels_at(client, uri, text, "  \n  monster \n", shift=2)
    assert {"monster", "glyph", "obstacle", "encounter", "pieces", "named", "chest"} <= set(statements)
    assert "piece" not in statements and "victory" not in statements
    monsters = await labels_at(client, uri, text, "monster \n", shift=8)
    assert "ogre" in monsters and "beastman" in monsters
    assert "ferrox" not in monsters  # Well of Darkness: not in this quest's expansions
    assert await labels_at(client, uri, text, "facing \n", shift=7) == ["east", "north", "south", "west"] or set(
        await labels_at(client, uri, text, "facing \n", shift=7)
    ) == {"north", "east", "south", "west"}
    pieces = await labels_at(client, uri, text, "  pieces \n", shift=9)
    assert set(pieces) == {"R1", "C1", "R2"}
    areas = await labels_at(client, uri, text, "revealed \n", shift=9)
    assert set(areas) == {"A", "B"}
    colours = await labels_at(client, uri, text, "rune \n", shift=5)
    assert {"red", "yellow", "blue"} <= set(colours)
    top = await labels_at(client, uri, text, "\npiece R1", shift=1)
    assert {"piece", "door", "area", "victory", "named", "on"} <= set(top)


async def test_completion_follows_expansions(client: LanguageClient, folder: Path):
    text = QUEST.replace("expansions base", "expansions base, well_of_darkness").replace(
        "  monster beastman at 3,1\n", "  monster beastman at 3,1\n  monster \n"
    )
    uri, _, _ = await opened(client, folder, "complete-wod.quest", text)
    monsters = await labels_at(client, uri, text, "monster \n", shift=8)
    assert "ferrox" in monsters and "kobold" in monsters
    sets = await labels_at(client, uri, text, "well_of_darkness")
    assert "tomb_of_ice" in sets


async def test_completion_of_overlord_cards(client: LanguageClient, folder: Path):
    from questc.catalog import builtin_catalog

    cards = builtin_catalog().cards
    text = QUEST + 'overlord {\n  card "\n}\n'
    uri, _, _ = await opened(client, folder, "complete-cards.quest", text)
    found = await client.text_document_completion_async(
        types.CompletionParams(ident(uri), position_of(text, 'card "', shift=6))
    )
    offered = {item.label: item for item in found.items}
    assert set(offered) == {name for name, card in cards.items() if card.set == "base"}
    name = sorted(offered)[0]
    edit = offered[name].text_edit
    assert edit.new_text == f'"{name}"' and edit.range.start == position_of(text, 'card "', shift=5)


# ---- navigation and rename ------------------------------------------------------------------


async def test_definition_and_references(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "nav.quest")
    use = position_of(QUEST, "C1", occurrence=1)  # door d1 between R1 C1
    found = await client.text_document_definition_async(types.DefinitionParams(ident(uri), use))
    assert [(loc.uri, loc.range.start) for loc in found] == [(uri, position_of(QUEST, "C1"))]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=ident(uri), position=use, context=types.ReferenceContext(include_declaration=True)
        )
    )
    lines = QUEST.split("\n")
    assert sorted(r.range.start.line for r in refs) == sorted(
        lines.index(line)
        for line in (
            "piece C1 corridor_2x4 at 4,1",
            "door d1 between R1 C1",
            "door d2 between C1 R2",
            "  pieces C1, R2",
        )
    )
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=ident(uri),
            position=position_of(QUEST, "boss"),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    lines = QUEST.split("\n")
    assert sorted(r.range.start.line for r in refs) == [
        lines.index("  named boss at 9,1"),
        lines.index("on killed boss {"),
        lines.index("victory heroes when killed boss"),
    ]
    assert all(
        QUEST.split("\n")[r.range.start.line][r.range.start.character : r.range.end.character] == "boss" for r in refs
    )


async def test_rename_every_reference(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "rename.quest")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=ident(uri), position=position_of(QUEST, "boss"), new_name="grubba")
    )
    renamed = apply_edits(QUEST, edit.changes[uri])
    assert "boss" not in renamed and renamed.count("grubba") == 4
    assert check_source(renamed).errors == []
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(ident(uri), position_of(QUEST, "R2", shift=1))
    )
    assert prepared.placeholder == "R2"


async def test_rename_to_a_name_another_kind_uses(client: LanguageClient, folder: Path):
    """Each kind has its own names: a piece may be called what a named monster or an area is."""
    uri, _, _ = await opened(client, folder, "rename-kinds.quest")
    for old, new in (("R1", "boss"), ("B", "R2")):
        edit = await client.text_document_rename_async(
            types.RenameParams(text_document=ident(uri), position=position_of(QUEST, old), new_name=new)
        )
        renamed = apply_edits(QUEST, edit.changes[uri])
        assert check_source(renamed).diagnostics == [], (old, new)


@pytest.mark.parametrize(
    "name, reason",
    [
        ("C1", "already the name of a piece (line 8)"),
        ("2x", "not an identifier"),
        ("big room", "not an identifier"),
        ("area", "a word of the quest language"),
    ],
)
async def test_rename_refuses(client: LanguageClient, folder: Path, name: str, reason: str):
    uri, _, _ = await opened(client, folder, f"refuse-{abs(hash(name))}.quest")
    with pytest.raises(Exception) as refused:
        await client.text_document_rename_async(
            types.RenameParams(text_document=ident(uri), position=position_of(QUEST, "R1"), new_name=name)
        )
    assert reason in str(refused.value)


# ---- outline, folding, formatting ---------------------------------------------------------


async def test_outline(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "outline.quest")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(ident(uri)))
    names = [s.name for s in symbols]
    assert names == [
        'quest "Server Test"',
        "R1",
        "C1",
        "R2",
        "d1",
        "d2",
        "A",
        "B",
        "boss",
        "on killed boss",
        "victory heroes",
    ]
    area_b = symbols[names.index("B")]
    assert [c.name for c in area_b.children] == ["pieces C1, R2", "named boss", "encounter e1"]
    assert area_b.selection_range.start == position_of(QUEST, 'B "Hall"')


async def test_folding(client: LanguageClient, folder: Path):
    text = "# a quest\n# in two lines\n" + QUEST
    uri, _, _ = await opened(client, folder, "fold.quest", text)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(ident(uri)))
    spans = {(r.start_line, r.end_line) for r in ranges}
    lines = text.split("\n")
    assert (0, 1) in spans  # the comment
    assert (lines.index('quest "Server Test" {'), lines.index("}") - 1) in spans
    assert (lines.index('area B "Hall" {'), lines.index('area B "Hall" {') + 5) in spans


async def test_formatting_is_fmt(client: LanguageClient, folder: Path):
    messy = QUEST.replace("piece R1 room_4x4 at 0,0", "piece   R1 room_4x4    at 0,0").replace(
        "  pieces R1", "pieces R1"
    )
    uri, _, _ = await opened(client, folder, "fmt.quest", messy)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(ident(uri), types.FormattingOptions(2, True))
    )
    assert apply_edits(messy, edits) == format_source(messy).output
    await change(client, uri, 2, [whole(format_source(messy).output)])
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(ident(uri), types.FormattingOptions(2, True))
    )
    assert list(again) == []  # already formatted: nothing to change


# ---- code actions ---------------------------------------------------------------------------


async def actions_at(client, uri, found, only=None):
    start = min((d.range.start for d in found), key=lambda p: (p.line, p.character))
    end = max((d.range.end for d in found), key=lambda p: (p.line, p.character))
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(uri),
            range=types.Range(start, end),
            context=types.CodeActionContext(diagnostics=list(found), only=only),
        )
    )


async def test_code_actions_are_the_diagnostics_fixes(client: LanguageClient, folder: Path):
    text = QUEST.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes").replace(
        "monster beastman", "monster beastmen"
    )
    uri, found, path = await opened(client, folder, "actions.quest", text)
    assert sorted(d.code for d in found) == ["Q101"]  # with a name error the suppression is not judged
    actions = await actions_at(client, uri, found)
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ["replace `beastmen` with `beastman` (Q101) [unsafe]"]
    assert quick[0].diagnostics[0].code == "Q101" and not quick[0].is_preferred
    fixed = apply_edits(text, quick[0].edit.changes[uri])
    assert fixed == text.replace("monster beastmen", "monster beastman")
    # Applied as an editor applies it: the server now reports the next problem, whose fix is safe.
    found = await change(client, uri, 2, [whole(fixed)])
    assert [d.code for d in found] == ["Q601"]
    assert list(found[0].tags) == [types.DiagnosticTag.Unnecessary]
    actions = await actions_at(client, uri, found)
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ["remove the unused suppression (Q601)"] and quick[0].is_preferred
    cleaned = apply_edits(fixed, quick[0].edit.changes[uri])
    assert cleaned == QUEST and check_source(cleaned, str(path)).diagnostics == []
    fix_all = [a for a in actions if a.kind == "source.fixAll.questc"]
    assert len(fix_all) == 1 and apply_edits(fixed, fix_all[0].edit.changes[uri]) == QUEST
    only = await actions_at(client, uri, found, only=["source.fixAll"])
    assert [a.kind for a in only] == ["source.fixAll.questc"]


async def test_no_code_action_without_a_fix(client: LanguageClient, folder: Path):
    text = QUEST.replace("door d2 between", "door d1 between")  # Q102: a duplicate has no mechanical cure
    uri, found, _ = await opened(client, folder, "no-actions.quest", text)
    assert [d.code for d in found] == ["Q102"]
    assert not await actions_at(client, uri, found)


async def test_positions_are_utf16_code_units(client: LanguageClient, folder: Path):
    """A character outside the Basic Multilingual Plane takes two UTF-16 units (VS Code's default
    encoding): positions after it on its line must count two."""
    text = QUEST.replace("  monster beastman at 3,1", '  read "🕯🕯 wax"; monster beastmen at 3,1')
    uri, found, _ = await opened(client, folder, "utf16.quest", text)
    line = text.split("\n").index('  read "🕯🕯 wax"; monster beastmen at 3,1')
    column = '  read "🕯🕯 wax"; monster '.__len__() + 2  # two candles, one extra unit each
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in found] == [
        ("Q101", line, column, column + len("beastmen"))
    ]
    hover = await client.text_document_hover_async(types.HoverParams(ident(uri), types.Position(line, column + 2)))
    assert "unknown monster `beastmen`: did you mean `beastman`?" in hover.contents.value
    actions = await actions_at(client, uri, found)
    fixed = [a for a in actions if a.kind == types.CodeActionKind.QuickFix][0].edit.changes[uri][0]
    assert fixed.range == found[0].range and fixed.new_text == "beastman"


async def test_semantic_tokens(client: LanguageClient, folder: Path):
    uri, _, _ = await opened(client, folder, "tokens.quest")
    found = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(ident(uri)))
    from questc.server.tokens import TOKEN_TYPES

    lines, decoded, line, start = QUEST.split("\n"), [], 0, 0
    data = list(found.data)
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        decoded.append((lines[line][start : start + length], TOKEN_TYPES[kind], bool(modifiers)))
    assert ("R1", "class", True) in decoded and ("R1", "class", False) in decoded
    assert ("B", "namespace", True) in decoded and ("boss", "variable", False) in decoded
    assert ("room_4x4", "type", False) in decoded and ("ogre", "type", False) in decoded
    assert ("3,1", "number", False) in decoded and ("e1", "event", True) in decoded


async def test_an_unsaved_buffer(client: LanguageClient):
    """A buffer never saved (`untitled:`) is checked with the default configuration."""
    from server_client import diagnostics_for

    uri = "untitled:Untitled-1"
    text = QUEST.replace("monster beastman", "monster beastmen")
    found = await diagnostics_for(
        client,
        uri,
        1,
        lambda: client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "quest", 1, text))
        ),
    )
    assert [d.code for d in found] == ["Q101"]
    hover = await hover_at(client, uri, text, "3,1", shift=1)
    assert "figures: beastman" not in hover and "cell 3,1" in hover
