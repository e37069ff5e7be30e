"""The language server on the second edition as its quest guides write it: completion offers the
names each new statement takes (the monsters after `group` and `place`, the pieces after `on`, the
tokens after `carried` and `remove`, what `defeated` may name, the traits), the closed words (the
phases and periods of a recurring rule), and hover explains the new identifiers and a monster's
group by the number of heroes. Driven from a real LSP client, as tests/test_server.py is."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import SERVER_COMMAND, accept_registrations, ident, open_quest, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUEST = """\
quest "Second Server Test" {
  edition second
  traits cave
}

piece In entrance at 1,-2 turn 180
piece Hall tile_9a at 0,0
piece Out exit at 4,1 turn 270
piece Cap end_cap at -1,1 turn 90

counter alarm "the alarm"

area A "Hall" start {
  pieces In, Hall, Out, Cap
  group goblin_archer on Hall
  open group cultists on Hall
  objective red key "The Key" at 2,2
}

at end of each overlord turn {
  alarm +1
  remove key
}

victory heroes when carried key to edge
victory overlord when alarm >= 4
"""


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)  # the server asks to watch packs and configuration, as editors allow
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


async def labels_at(client, uri, text, needle, shift=0) -> list[str]:
    found = await client.text_document_completion_async(
        types.CompletionParams(ident(uri), position_of(text, needle, shift=shift))
    )
    items = found.items if isinstance(found, types.CompletionList) else found
    return [item.label for item in items]


async def test_completion_of_the_new_statements(client: LanguageClient, tmp_path: Path):
    text = (
        QUEST.replace("  objective red key", "  group \n  lieutenant splig on \n  objective red key")
        .replace("  remove key\n", "  remove key\n  place 2 \n  remove \n")
        .replace(
            "victory heroes when carried key to edge",
            "victory heroes when carried key to edge\n"
            "victory heroes when defeated \nvictory heroes when carried \nat end of each ",
        )
    )
    path = tmp_path / "complete.quest"
    path.write_text(text, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    monsters = await labels_at(client, uri, text, "  group \n", shift=8)
    assert {"goblin_archer", "zombie", "shadow_dragon"} <= set(monsters) and "In" not in monsters
    assert {"In", "Hall", "Out", "Cap"} <= set(await labels_at(client, uri, text, "lieutenant splig on \n", shift=20))
    assert "zombie" in await labels_at(client, uri, text, "  place 2 \n", shift=10)
    assert await labels_at(client, uri, text, "  remove \n", shift=9) == ["key"]
    defeated = await labels_at(client, uri, text, "defeated \n", shift=9)
    assert {"cultists", "splig", "goblin_archer"} <= set(defeated)
    assert "key" in await labels_at(client, uri, text, "carried \nat", shift=8)
    assert {"round", "overlord turn", "hero turn"} <= set(
        await labels_at(client, uri, text, "at end of each ", shift=15)
    )


async def test_hover_on_the_new_identifiers_and_a_group(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "hover.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, found = await open_quest(client, path)
    assert [d for d in found if d.severity == types.DiagnosticSeverity.Error] == []

    async def hover(needle: str, shift: int = 0) -> str:
        answer = await client.text_document_hover_async(
            types.HoverParams(ident(uri), position_of(QUEST, needle, shift=shift))
        )
        assert answer is not None, needle
        return answer.contents.value

    assert "token **key**" in await hover("remove key", shift=8)
    assert "counter **alarm**" in await hover("alarm >= 4", shift=1)
    group = await hover("group goblin_archer", shift=8)
    assert "traits: building, cave" in group and "4 heroes 4 + 1 master" in group
