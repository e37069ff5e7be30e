"""The quest language's words as an editor shows them: each keyword's statement forms, its section of
docs/language.md, and the game rule an edition must have for it (questc.editions.GAME_RULES).

Completion offers a word only where its edition has the rule; hover shows the forms and links the
section; signature help walks the form's parts as the statement is typed. tests/test_server_words.py
holds the table to the grammar (every keyword has an entry) and to docs/language.md (every anchor
exists there).
"""

from __future__ import annotations

from dataclasses import dataclass

DOCS = "docs/language.md"


@dataclass(frozen=True)
class Keyword:
    """A word of the language with its forms and its section of docs/language.md."""

    word: str
    forms: tuple[str, ...]  # LANGUAGE.md's forms; a word with several uses has several
    section: str  # the anchor of its section in docs/language.md
    needs: str | None = None  # a game rule its edition must have (Edition.has)
    header: bool = False  # a header field
    repeats: bool = False  # a header field that may be written more than once


def _k(word, forms, section, needs=None, header=False, repeats=False) -> Keyword:
    return Keyword(word, tuple([forms] if isinstance(forms, str) else forms), section, needs, header, repeats)


KEYWORDS: dict[str, Keyword] = {
    k.word: k
    for k in (
        # the header
        _k("quest", 'quest "Title" { FIELDS }', "3-the-header"),
        _k("id", "id NAME", "3-the-header", header=True),
        _k("edition", "edition first|second", "3-the-header", header=True),
        _k("expansions", "expansions SET, ...", "3-the-header", header=True),
        _k("players", ["players a..b", "monster TYPE at P players a..b"], "3-the-header", header=True),
        _k(
            "conquest",
            ["conquest N", "conquest N (an effect, a named monster's reward)", "victory ... when conquest <= N"],
            "3-the-header",
            needs="conquest",
            header=True,
        ),
        _k("treachery", "treachery event N, trap N, monster N", "3-the-header", needs="treachery", header=True),
        _k("reveal", ["reveal sight|door|all (header)", "reveal AREA (effect)"], "3-the-header", header=True),
        _k("author", 'author "NAME"', "3-the-header", header=True),
        _k("version", 'version "TEXT"', "3-the-header", header=True),
        _k("intro", 'intro """TEXT"""', "3-the-header", header=True),
        _k("special", 'special """TEXT"""', "3-the-header", header=True),
        _k("use", 'use "pack.yaml"', "3-the-header", header=True, repeats=True),
        _k("part_of", "part_of QUEST", "the-header-encounters-act-and-traits", header=True),
        _k("act", "act 1|2", "the-header-encounters-act-and-traits", needs="acts", header=True),
        _k("traits", "traits TRAIT, ...", "the-header-encounters-act-and-traits", needs="groups", header=True),
        # the map
        _k("piece", "piece ID TYPE at X,Y [turn 0|90|180|270]", "piece"),
        _k("turn", "piece ID TYPE at X,Y turn 0|90|180|270", "piece"),
        _k("door", ["door ID between PIECE PIECE [rune COLOUR]", "door ID at X,Y SIDE [rune COLOUR]"], "door"),
        _k("between", "door ID between PIECE PIECE", "door"),
        _k("rune", "door ID between PIECE PIECE rune COLOUR", "door", needs="rune doors"),
        _k("stairs", "stairs COLOUR at X,Y X,Y", "stairs", needs="stairs"),
        _k(
            "at",
            [
                "THING at X,Y",
                "THING at PIECE:X,Y",
                "at start|end of each round|overlord turn|hero turn [if CONDITION] { EFFECTS }",
            ],
            "4-the-map-pieces-doors-stairs",
        ),
        # areas
        _k("area", 'area ID ["Name"] [start] { STATEMENTS }', "5-areas-and-what-is-in-them"),
        _k("start", ['area ID "Name" start { ... }', "start at P..."], "5-areas-and-what-is-in-them"),
        _k("pieces", "pieces PIECE, ...", "pieces-and-cells"),
        _k("cells", "cells X,Y|X1,Y1..X2,Y2 ...", "pieces-and-cells"),
        _k("read", 'read """TEXT"""', "read-and-note"),
        _k("note", 'note "TEXT"', "read-and-note"),
        _k("glyph", "glyph at P [active]", "glyph", needs="glyph start"),
        _k("active", "glyph at P active", "glyph", needs="glyph start"),
        _k("monster", ["monster TYPE [master] at P... [facing DIR] [players a..b]", "treachery monster N"], "monster"),
        _k("master", ["monster TYPE master at P...", "spawn TYPE master at P..."], "monster"),
        _k("facing", "monster TYPE at P facing north|east|south|west", "monster"),
        _k("named", ["named ID at P [facing DIR] (in an area)", 'named ID "Display Name" TYPE { ... }'], "named"),
        _k("chest", "chest copper|silver|gold at P...", "chest-treasure-relic-runekey", needs="chests"),
        _k(
            "treasure",
            ["treasure KIND at P...", "treasure copper|silver|gold [N] (an effect)"],
            "chest-treasure-relic-runekey",
        ),
        _k("relic", "relic NAME at P", "chest-treasure-relic-runekey", needs="chests"),
        _k("runekey", "runekey COLOUR at P", "chest-treasure-relic-runekey", needs="rune doors"),
        _k("obstacle", "obstacle KIND at P|RECT...", "obstacle-and-trap"),
        _k("trap", ["trap KIND at P... [facing DIR]", "treachery trap N"], "obstacle-and-trap"),
        _k(
            "encounter",
            [
                "encounter ID at P { EFFECTS }",
                "encounter N|2a (a second edition header)",
                "victory ... when CONDITION then encounter N|2a",
            ],
            "encounter",
        ),
        _k(
            "search",
            [
                'search [ID ["Name"]] at P...|on PIECE, ... [count N]|among P... [count N]',
                "place search at P...|on PIECE, ...|in AREA",
                "replace TOKEN with search",
            ],
            "tokens",
            needs="tokens",
        ),
        _k(
            "objective",
            [
                'objective [COLOUR] [ID ["Name"]] at P...|on PIECE, ... [count N]|among P... [count N]|carried',
                "place objective [COLOUR] at P...|on PIECE, ...|in AREA",
            ],
            "tokens",
            needs="objectives",
        ),
        _k(
            "villager",
            [
                'villager [ID ["Name"]] at P...|on PIECE, ... [count N]|among P... [count N]',
                "place villager at P...|on PIECE, ...|in AREA",
            ],
            "tokens",
            needs="tokens",
        ),
        _k(
            "lieutenant",
            ["lieutenant NAME at P [facing DIR]", "lieutenant NAME on PIECE, ..."],
            "monsters-groups-open-groups-and-lieutenants",
            needs="lieutenants",
        ),
        _k("among", "search|villager|objective among P... [count N]", "tokens", needs="tokens"),
        _k("count", "search|villager|objective on PIECE, ...|among P... count N|heroes [+N]", "tokens", needs="tokens"),
        _k(
            "carried",
            ["objective [COLOUR] ID carried", "carried TOKEN to AREA|PIECE|edge (a condition)"],
            "tokens",
            needs="carrying",
        ),
        _k("edge", "carried TOKEN to edge", "victory-in-the-second-edition", needs="carrying"),
        _k("to", ["carried TOKEN to AREA|PIECE|edge", "place ... up to limit|N"], "victory-in-the-second-edition"),
        _k("heroes", ["victory heroes ...", "win heroes", "count|minions|masters heroes [+N]"], "10-victory"),
        _k(
            "group",
            [
                "group TYPE [on PIECE, ...] [minions N] [masters N] [{ all|minions|master +N health|speed }]",
                "open group [ID] [on PIECE, ...]",
            ],
            "monsters-groups-open-groups-and-lieutenants",
            needs="groups",
        ),
        _k(
            "minions",
            ["group TYPE minions N|heroes [+N]", "group TYPE { minions +N health|speed }"],
            "monsters-groups-open-groups-and-lieutenants",
            needs="groups",
        ),
        _k(
            "masters", "group TYPE masters N|heroes [+N]", "monsters-groups-open-groups-and-lieutenants", needs="groups"
        ),
        _k(
            "all",
            ["group TYPE { all +N health|speed }", "defeated all"],
            "monsters-groups-open-groups-and-lieutenants",
            needs="groups",
        ),
        _k(
            "entrance",
            ["entrance PIECE, ...", "piece ID entrance at X,Y (the entrance tile)"],
            "entrances-exits-and-where-the-heroes-start",
            needs="roles",
        ),
        _k(
            "exit",
            ["exit PIECE, ...", "piece ID exit at X,Y (the exit tile)"],
            "entrances-exits-and-where-the-heroes-start",
            needs="roles",
        ),
        _k("counter", 'counter ID ["Name"]', "counters-and-rules-of-each-round"),
        _k(
            "place",
            "place [N] TYPE [master]|search|villager|objective [COLOUR] on PIECE, ...|in AREA|at P... [up to limit|N]",
            "counters-and-rules-of-each-round",
        ),
        _k("in", ["place ... in AREA", "GROUP|NAME in AREA (a condition)"], "counters-and-rules-of-each-round"),
        _k("up", "place ... up to limit|N", "counters-and-rules-of-each-round"),
        _k("limit", "place ... up to limit", "counters-and-rules-of-each-round"),
        _k("remove", "remove TOKEN", "counters-and-rules-of-each-round", needs="tokens"),
        _k(
            "replace",
            "replace TOKEN with search|villager|objective [COLOUR]",
            "counters-and-rules-of-each-round",
            needs="tokens",
        ),
        _k(
            "with",
            "replace TOKEN with search|villager|objective [COLOUR]",
            "counters-and-rules-of-each-round",
            needs="tokens",
        ),
        _k(
            "if",
            "at start|end of each round|overlord turn|hero turn if CONDITION { EFFECTS }",
            "counters-and-rules-of-each-round",
        ),
        _k(
            "of",
            "at start|end of each round|overlord turn|hero turn [if CONDITION] { EFFECTS }",
            "counters-and-rules-of-each-round",
        ),
        _k(
            "each",
            "at start|end of each round|overlord turn|hero turn [if CONDITION] { EFFECTS }",
            "counters-and-rules-of-each-round",
        ),
        _k(
            "defeated",
            ["defeated GROUP|NAME|all (a condition)", "on defeated NAME { EFFECTS }"],
            "victory-in-the-second-edition",
            needs="groups",
        ),
        _k("then", "victory SIDE when CONDITION then encounter N|2a", "the-header-encounters-act-and-traits"),
        # named monsters
        _k("abilities", "abilities NAME [N], ...", "6-named-monsters"),
        # effects and triggers
        _k(
            "on",
            [
                "on reveal AREA { EFFECTS }",
                "on killed NAMED { EFFECTS }",
                "on open DOOR { EFFECTS }",
                "on round N { EFFECTS }",
                "on defeated NAME { EFFECTS } (second edition)",
            ],
            "7-effects-and-triggers",
        ),
        _k("spawn", "spawn TYPE [master] at P...", "7-effects-and-triggers"),
        _k("open", ["open DOOR (an effect)", "on open DOOR { ... }"], "7-effects-and-triggers"),
        _k("close", "close DOOR", "7-effects-and-triggers"),
        _k("unlock", "unlock COLOUR", "7-effects-and-triggers", needs="rune doors"),
        _k("threat", "threat N", "7-effects-and-triggers", needs="treachery"),
        _k("win", "win heroes|overlord", "7-effects-and-triggers"),
        _k("instruct", 'instruct "TEXT"', "7-effects-and-triggers"),
        # the chest chart and the overlord's plan
        _k("chests", "chests { KIND N: CONTENT, ... }", "8-the-chest-chart", needs="chests"),
        _k("coins", "chests { KIND N: coins N, ... }", "8-the-chest-chart", needs="chests"),
        _k("potion", "chests { KIND N: potion KIND, ... }", "8-the-chest-chart", needs="chests"),
        _k(
            "overlord",
            ['overlord { card "NAME" [xN]; dark_glyph KIND }', "win overlord", "victory overlord when ..."],
            "9-the-overlords-deck-plan",
        ),
        _k("card", 'card "NAME" [xN]', "9-the-overlords-deck-plan", needs="treachery"),
        _k("dark_glyph", "dark_glyph KIND", "9-the-overlords-deck-plan", needs="treachery"),
        # victory
        _k("victory", 'victory heroes|overlord ["Label"] when CONDITION [then encounter N]', "10-victory"),
        _k("when", "victory SIDE when CONDITION", "10-victory"),
        _k("killed", ["killed NAMED (a condition)", "on killed NAMED { ... }"], "10-victory"),
        _k("revealed", "revealed AREA", "10-victory"),
        _k("triggered", "triggered ENCOUNTER", "10-victory"),
        _k("opened", "opened DOOR", "10-victory"),
        _k("round", ["round >= N (a condition)", "on round N { ... }"], "10-victory"),
        _k("objectives", "objectives [OP] N", "10-victory", needs="objectives"),
        _k("exited", "exited [[OP] N]", "10-victory", needs="exit"),
        _k("and", "CONDITION and CONDITION", "10-victory"),
        _k("or", "CONDITION or CONDITION", "10-victory"),
        _k("not", "not CONDITION", "10-victory"),
    )
}


def keyword(word: str) -> Keyword | None:
    return KEYWORDS.get(word)


def docs_link(section: str) -> str:
    """The address of a section of docs/language.md: on the project's site when questc knows it."""
    from questc.api import project_urls

    base = project_urls().get("repository")
    return f"{base}/blob/main/{DOCS}#{section}" if base else f"{DOCS}#{section}"


def allowed(entry: Keyword, edition, in_header: bool = False) -> bool:
    """May a quest of this edition (a questc.editions.Edition) write the word, in its header or elsewhere?
    A header field that only some editions take (Edition.header_fields: `encounter`, `part_of`) is
    offered in theirs; `encounter` elsewhere is the encounter marker, which needs the `encounters` rule."""
    from questc.api import edition_names, find_edition

    if in_header:
        only_some = {f for name in edition_names() for f in getattr(find_edition(name), "header_fields", ())}
        if entry.word in only_some:
            return entry.word in edition.header_fields
    elif entry.word == "encounter":
        return edition.has("encounters")
    return entry.needs is None or edition.has(entry.needs)


def hover_text(entry: Keyword, edition=None) -> str:
    """A keyword's hover: its forms, the section that explains it, and a word when its edition lacks it."""
    forms = "\n".join(entry.forms)
    text = (
        f"**`{entry.word}`**{' (header field)' if entry.header else ''}\n\n```quest\n{forms}\n```\n\n"
        f"[docs/language.md: {entry.section.replace('-', ' ')}]({docs_link(entry.section)})"
    )
    if edition is not None and not allowed(entry, edition):
        text += f"\n\n_not in a {edition.name} edition quest ({entry.needs})_"
    return text
