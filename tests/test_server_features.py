"""`questc server`'s language features as an editor meets them: completion that knows where the cursor
is (comments, strings, the edition, the header's fields, after `abilities` and `at`), hover on every
keyword and header field, signature help, watched packs and configuration, code actions for the whole
line, "suppress on this line", fix-all with typo fixes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import SERVER_COMMAND, accept_registrations, apply_edits, diagnostics_for, ident, open_quest
from test_server import QUEST

from questc.api import check_source

pytestmark = pytest.mark.asyncio(loop_scope="module")

SECOND = """\
quest "Second" {
  id second_test
  edition second
  encounter 1
}

piece T1 tile_4a at 0,0

area A "Entry" start {
  pieces T1
}

victory heroes when round >= 3
"""


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
        )
    )
    yield
    await lsp_client.shutdown_session()


def at(text: str, marker: str = "|") -> tuple[str, types.Position]:
    offset = text.index(marker)
    text = text.replace(marker, "", 1)
    line = text.count("\n", 0, offset)
    return text, types.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


async def labels(client, tmp_path: Path, text_with_cursor: str, name: str) -> list[str]:
    text, position = at(text_with_cursor)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    uri, _ = await open_quest(client, path, text)
    found = await client.text_document_completion_async(types.CompletionParams(ident(uri), position))
    return [item.label for item in found.items]


# ---- completion by context ---------------------------------------------------------------------
async def test_no_completion_in_comments_or_strings(client, tmp_path):
    assert await labels(client, tmp_path, QUEST.replace("piece R1", "# a note about |\npiece R1"), "c1.quest") == []
    assert await labels(client, tmp_path, QUEST.replace('area A "Entry"', 'area A "Ent |ry"'), "c2.quest") == []
    # ... but an overlord card's name is a string, and is completed.
    text = QUEST.replace("victory heroes", 'overlord {\n  card "|\n}\nvictory heroes')
    assert "Aim" in await labels(client, tmp_path, text, "c3.quest")


async def test_completion_follows_the_edition(client, tmp_path):
    first = await labels(
        client, tmp_path, QUEST.replace("  obstacle rubble at 0,3\n", "  obstacle rubble at 0,3\n  |\n"), "e1.quest"
    )
    assert {"glyph", "chest", "runekey", "encounter"} <= set(first)
    assert not {"search", "villager", "lieutenant", "objective", "start", "group", "entrance"} & set(first)
    second = await labels(client, tmp_path, SECOND.replace("  pieces T1\n", "  pieces T1\n  |\n"), "e2.quest")
    assert {"search", "villager", "lieutenant", "objective", "start", "group", "open"} <= set(second)
    assert not {"glyph", "chest", "runekey", "encounter"} & set(second)
    header = await labels(client, tmp_path, SECOND.replace("  encounter 1\n", "  encounter 1\n  |\n"), "e3.quest")
    assert "conquest" not in header and "treachery" not in header and {"part_of", "act", "traits"} <= set(header)
    first_header = await labels(client, tmp_path, QUEST.replace("  conquest 5\n", "  conquest 5\n  |\n"), "e4.quest")
    assert not {"act", "traits", "part_of", "encounter"} & set(first_header)


async def test_header_fields_are_offered_once(client, tmp_path):
    found = await labels(client, tmp_path, QUEST.replace("  conquest 5\n", "  conquest 5\n  |\n"), "h1.quest")
    assert "author" in found and "use" in found
    assert not {"id", "expansions", "conquest"} & set(found)  # written already, and said once


async def test_completion_after_abilities_and_at(client, tmp_path):
    text = (
        QUEST.replace("  wounds +2\n", "  wounds +2\n  abilities knockback\n")
        + 'named other "Other" ogre {\n  abilities |\n}\n'
    )
    assert "knockback" in await labels(client, tmp_path, text, "a1.quest")
    found = await labels(
        client, tmp_path, QUEST.replace("monster beastman at 3,1", "monster beastman at |"), "a2.quest"
    )
    assert {"R1:", "C1:", "R2:"} <= set(found)


# ---- hover on keywords and header fields, signature help --------------------------------------
@pytest.mark.parametrize(
    "word", ["conquest", "expansions", "monster", "door", "victory", "on", "pieces", "glyph", "id", "quest"]
)
async def test_hover_on_a_keyword_shows_its_form_and_its_section(client, tmp_path, word):
    path = tmp_path / "hover.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    line = next(i for i, text in enumerate(QUEST.split("\n")) if text.strip().startswith(word + " "))
    column = QUEST.split("\n")[line].index(word) + 1
    found = await client.text_document_hover_async(types.HoverParams(ident(uri), types.Position(line, column)))
    assert found is not None, word
    text = found.contents.value
    assert f"**`{word}`**" in text and "```quest" in text and "docs/language.md" in text


async def test_signature_help_walks_the_statement(client, tmp_path):
    text, position = at(QUEST.replace("  obstacle rubble at 0,3\n", "  obstacle rubble at 0,3\n  monster ogre |\n"))
    path = tmp_path / "signature.quest"
    path.write_text(text, encoding="utf-8")
    uri, _ = await open_quest(client, path, text)
    found = await client.text_document_signature_help_async(types.SignatureHelpParams(ident(uri), position))
    signature = found.signatures[found.active_signature]
    assert signature.label.startswith("monster TYPE [master] at P")
    start, end = signature.parameters[found.active_parameter].label
    assert signature.label[start:end] == "[master]"
    # Of a door's two forms, the one being typed.
    text, position = at(QUEST.replace("door d2 between C1 R2", "door d2 at |"))
    path.write_text(text, encoding="utf-8")
    uri, _ = await open_quest(client, tmp_path / "signature2.quest", text)
    found = await client.text_document_signature_help_async(types.SignatureHelpParams(ident(uri), position))
    assert found.signatures[found.active_signature].label.startswith("door ID at X,Y")
    # A second edition statement: a monster group.
    text, position = at(SECOND.replace("  pieces T1\n", "  pieces T1\n  group goblin_archer |\n"))
    uri, _ = await open_quest(client, tmp_path / "signature3.quest", text)
    found = await client.text_document_signature_help_async(types.SignatureHelpParams(ident(uri), position))
    signature = found.signatures[found.active_signature]
    assert signature.label.startswith("group TYPE [on PIECE, ...]")
    start, end = signature.parameters[found.active_parameter].label
    assert signature.label[start:end] == "[on PIECE, ...]"


WAXWORKS = """\
set: waxworks
sets:
  waxworks:
    title: Waxworks
monsters:
  wax_golem:
    footprint: [1, 1]
    normal: {count: 2, source: rulebook}
    master: {count: 1, source: rulebook}
"""


# ---- watched packs and configuration ---------------------------------------------------------
async def test_a_changed_pack_checks_the_open_quests_again(client, tmp_path):
    assert any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    pack = tmp_path / "pack.yaml"
    pack.write_text(WAXWORKS, encoding="utf-8")
    text = (
        QUEST.replace("  conquest 5\n", '  conquest 5\n  use "pack.yaml"\n')
        .replace("monster beastman at 3,1", "monster wax_golem at 3,1")
        .replace("expansions base", "expansions base, waxworks")
    )
    path = tmp_path / "packed.quest"
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path)
    assert [d.code for d in found if d.code.startswith("Q1")] == [], found
    pack.write_text(WAXWORKS.split("monsters:")[0], encoding="utf-8")
    found = await diagnostics_for(
        client,
        uri,
        1,
        lambda: client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams([types.FileEvent(pack.as_uri(), types.FileChangeType.Changed)])
        ),
    )
    assert "Q101" in [d.code for d in found]  # the golem is gone from the pack, the quest unedited


async def test_a_changed_configuration_checks_the_open_quests_again(client, tmp_path):
    """`questc.toml` written beside an open quest (a watched file): its diagnostics follow at once."""
    text = QUEST.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes")  # suppresses nothing: Q601
    path = tmp_path / "configured.quest"
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path)
    assert [d.code for d in found] == ["Q601"]
    config = tmp_path / "questc.toml"
    config.write_text('ignore = ["Q601"]\n', encoding="utf-8")
    found = await diagnostics_for(
        client,
        uri,
        1,
        lambda: client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams([types.FileEvent(config.as_uri(), types.FileChangeType.Created)])
        ),
    )
    assert found == []
    config.unlink()
    found = await diagnostics_for(
        client,
        uri,
        1,
        lambda: client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams([types.FileEvent(config.as_uri(), types.FileChangeType.Deleted)])
        ),
    )
    assert [d.code for d in found] == ["Q601"]
    registered = next(r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    patterns = {w["globPattern"] for w in registered.register_options["watchers"]}
    assert {"**/questc.toml", "**/pyproject.toml", "**/*.yaml"} <= patterns


# ---- code actions ------------------------------------------------------------------------------
async def actions(client, uri, line: int, character: int = 0):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(uri),
            range=types.Range(types.Position(line, character), types.Position(line, character)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )


async def test_quick_fixes_anywhere_on_the_line_and_suppress_here(client, tmp_path):
    text = QUEST.replace("monster beastman at 3,1", "monster beastman at 3,1 facing east  # looks at the door")
    path = tmp_path / "line.quest"
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path, text)
    (warning,) = [d for d in found if d.code == "Q211"]
    line = warning.range.start.line
    got = await actions(client, uri, line, 0)  # the cursor at the line's start, far from the span
    titles = [a.title for a in got]
    assert "Suppress Q211 on this line" in titles
    suppress = next(a for a in got if a.title == "Suppress Q211 on this line")
    suppressed = apply_edits(text, suppress.edit.changes[uri])
    assert "facing east  # questc: ignore[Q211] looks at the door" in suppressed
    assert [d.code for d in check_source(suppressed, str(path)).diagnostics] == []
    # An error of reference cannot be suppressed: no such action.
    typo = QUEST.replace("monster beastman", "monster beastmen")
    uri2, found = await open_quest(client, tmp_path / "typo.quest", typo)
    got = await actions(client, uri2, found[0].range.start.line)  # the line's start, before the typo
    assert [a.title for a in got if a.kind == types.CodeActionKind.QuickFix] == [
        "replace `beastmen` with `beastman` (Q101) [unsafe]"
    ]  # its fix, and no suppression of an error


async def test_fix_all_takes_the_typo_fixes(client, tmp_path):
    text = QUEST.replace("monster beastman", "monster beastmen").replace("obstacle rubble", "obstacle rubbel")
    path = tmp_path / "fixall.quest"
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path, text)
    assert sorted(d.code for d in found) == ["Q101", "Q101"]
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )
    (fix_all,) = got
    assert apply_edits(text, fix_all.edit.changes[uri]) == QUEST
    await asyncio.sleep(0)
