"""The rule sets a quest is played by, one module each, chosen by the header's name for it.

    from questc.editions import edition
    rules = edition("second")        # the Edition of `edition second`
    rules.sight, rules.default_sets, rules.has("conquest")

An Edition holds what differs between the games questc checks: the component sets a quest
uses when its header names none, the line-of-sight rule and the reveal mode by default,
where the heroes start, which of the game's rules its quests play by (GAME_RULES: conquest,
treachery, lieutenants...), the header fields only its quests take, the victory conditions
its quests may use, and the outputs a build makes. The stages ask it; nothing else in
questc tests an edition's name (tests/test_editions.py counts).

The built-in editions are the modules of this package listed in BUILT_IN, imported when
first named, as Lark picks its parser front end by name; `register` adds another (a
conversion kit, a house rule set): a new module and its data, nothing else edited. A
rule of questc.rules says which of the game's rules it checks (`Rule.needs`, `Rule.lacks`)
and runs for every edition that has them.
"""

from __future__ import annotations

from importlib import import_module

from questc.records import record

__all__ = [
    "Edition",
    "GAME_RULES",
    "SHEET_SECTIONS",
    "BUILT_IN",
    "DEFAULT",
    "edition",
    "find",
    "having",
    "names",
    "register",
    "unregister",
]

# The game's rules an edition may play by, and what each is (Edition.rules, Rule.needs).
GAME_RULES = {
    "conquest": "the heroes' conquest tokens: the header's `conquest`, conquest effects, rewards and "
    "victory conditions",
    "treachery": "the overlord's treachery budget and the deck plan it buys",
    "lieutenants": "lieutenant tokens on the map, which `killed NAME` may name",
    "start at": "the `start at` statement: spaces where the heroes start",
    "objectives": "objective tokens and the `objectives` victory condition",
    "exit": "the exit piece and the `exited` victory condition",
    "tokens": "search, objective, villager and lieutenant tokens placed on the map",
    "tiles": "map tiles printed on both sides, so a map uses each tile once",
    "rune doors": "rune doors and the runekeys that open them",
    "stairs": "staircases joining two spaces",
    "corridors": "corridor and intersection pieces, whose open ends a dead end must cap",
    "chests": "chests on the map and the chest chart that says what they hold",
    "encounters": "encounter markers, whose effects run when a hero ends his move on one",
    "glyph start": "heroes start on or next to an active glyph of the start area",
    "entrance start": "heroes start on the start area's entrance spaces (or its `start at` spaces)",
    "groups": "monster groups the overlord places on a piece or area, open groups chosen by the quest's "
    "traits, changes to a whole group, reinforcements up to the group limit, and the `defeated` "
    "victory condition",
    "carrying": "objective tokens carried by the heroes (one carried from the start), and the `carried` "
    "victory condition",
    "roles": "the `entrance` and `exit` statements: which pieces are the quest's entrances and exits, "
    "whatever their type",
    "acts": "the campaign's acts (`act 1`, `act 2`): the cards of which act a quest uses",
}

# The sections a printed sheet may have (Edition.sheet orders them; templates/sheet/sheet.j2 words them).
SHEET_SECTIONS = (
    "introduction",
    "monsters",
    "setup",
    "special",
    "reinforcements",
    "victory",
    "map",
    "areas",
    "encounters",
    "events",
    "named",
    "chests",
)

# How heroes start, by the start rule (Edition.start), in a message's words.
_START_WORDS = {"glyph": "on or next to an active glyph", "entrance": "on the entrance's spaces"}


@record
class Edition:
    """One rule set (see the module docstring).

    name: as the header writes it (`edition first`); title: as a player reads it (the
    sheet's "First edition"); default_sets: the sets a quest uses when its header lists
    none; sight: the board's line-of-sight rule (questc.board.sight: `first`, centre to
    centre; `second`, any corner to any corner); reveal: the reveal mode when the header
    gives none (sight, door, all); start: where the heroes start (`glyph`: on or next to the
    start area's active glyph; `entrance`: on its entrance's spaces, or `start at`); rules:
    which of GAME_RULES its quests play by; header_fields: the header fields only its
    quests take; conditions: the victory conditions its quests may use, in the order a
    message suggests them; exports: the output kinds a build makes of its quests;
    components: the edition whose component sets its quests are played with (the catalog's
    sets say which edition they belong to), when not its own (a conversion kit's); sheet: the
    printed sheet's sections in the order its quest books print them (SHEET_SECTIONS, each a
    macro of templates/sheet/sheet.j2; a section with nothing to say prints nothing); map_pieces:
    its maps show each map piece's outline and printed code (the tiles a group lays out; a
    print-and-play map shows them for every edition).
    """

    name: str
    title: str
    default_sets: tuple[str, ...]
    sight: str
    reveal: str
    start: str
    rules: frozenset[str]
    header_fields: frozenset[str] = frozenset()
    conditions: tuple[str, ...] = ()
    exports: tuple[str, ...] = ("json", "png", "pdf", "play")
    components: str = ""
    sheet: tuple[str, ...] = (
        "introduction",
        "setup",
        "special",
        "victory",
        "map",
        "areas",
        "encounters",
        "events",
        "named",
        "chests",
    )
    map_pieces: bool = False

    @property
    def component_edition(self) -> str:
        """The name the catalog's sets give the edition of the components its quests use."""
        return self.components or self.name

    def __post_init__(self) -> None:
        unknown = sorted(self.rules - set(GAME_RULES))
        if unknown:
            raise ValueError(f"edition {self.name}: unknown game rules {unknown}; the rules are {sorted(GAME_RULES)}")
        if self.start not in _START_WORDS:
            raise ValueError(f"edition {self.name}: unknown start rule {self.start!r}")
        unknown = sorted(set(self.sheet) - set(SHEET_SECTIONS))
        if unknown:
            raise ValueError(
                f"edition {self.name}: unknown sheet sections {unknown}; the sections are {', '.join(SHEET_SECTIONS)}"
            )

    def has(self, rule: str) -> bool:
        """Do this edition's quests play by `rule` (a key of GAME_RULES, or "<start> start")?"""
        return rule in self.features

    @property
    def features(self) -> frozenset[str]:
        """Its rules with its start rule (`glyph start`, `entrance start`): what a Rule may need."""
        return self.rules | {f"{self.start} start"}

    @property
    def start_words(self) -> str:
        """Where its heroes start, in words: "on or next to an active glyph"."""
        return _START_WORDS[self.start]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Edition {self.name}>"


# The built-in editions: name -> the module whose EDITION it is.
BUILT_IN = {"first": "questc.editions.first", "second": "questc.editions.second"}
DEFAULT = "first"  # a quest whose header names no edition

_REGISTERED: dict[str, Edition] = {}


def register(rules: Edition) -> Edition:
    """Make an edition known by its name (a built-in name may not be taken). Returns it."""
    if rules.name in BUILT_IN and rules is not edition(rules.name):
        raise ValueError(f"edition {rules.name!r} is built in")
    _REGISTERED[rules.name] = rules
    return rules


def unregister(name: str) -> None:
    """Forget an edition `register` added (tests that register one clean up after them)."""
    if name in BUILT_IN:
        raise ValueError(f"edition {name!r} is built in")
    _REGISTERED.pop(name, None)


def find(name: str) -> Edition | None:
    """The edition of this name, else None."""
    found = _REGISTERED.get(name)
    if found is None and name in BUILT_IN:
        found = _REGISTERED[name] = import_module(BUILT_IN[name]).EDITION
    return found


def edition(name: str = DEFAULT) -> Edition:
    """The edition of this name; ValueError (naming the editions) for another."""
    found = find(name)
    if found is None:
        raise ValueError(f"no edition {name!r}: the editions are {', '.join(names())}")
    return found


def having(rule: str) -> tuple[Edition, ...]:
    """The editions whose quests play by `rule` (a key of GAME_RULES), in names() order: a message
    about a rule of another edition names the edition that has it."""
    return tuple(e for e in (edition(name) for name in names()) if e.has(rule))


def names() -> tuple[str, ...]:
    """Every edition's name: the built-in ones first, then those registered."""
    return tuple(dict.fromkeys([*BUILT_IN, *_REGISTERED]))
