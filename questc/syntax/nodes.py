"""The syntax tree: frozen, typed nodes, each carrying the Span it was parsed from.

Nodes hold source values as written (names, points relative to pieces, text after
unescaping and dedent); looking names up is the model's job. Every node has a
`span`; names that diagnostics point at are `Name`s, which carry their own span.
"""

from __future__ import annotations

from questc.diagnostics.core import Span
from questc.records import record

# ---- values ------------------------------------------------------------------


@record(slots=True)
class Name:
    """An identifier as written: `value`, and where it stands."""

    span: Span
    value: str


@record(slots=True)
class Text:
    """A string after unescaping (and, for triple-quoted strings, dedent). `long`: written with triple quotes."""

    span: Span
    value: str
    long: bool = False


@record(slots=True)
class PointRef:
    """A cell: absolute `x,y`, or `piece:x,y` counted from the piece's top-left corner after its turn."""

    span: Span
    x: int
    y: int
    piece: Name | None = None


@record(slots=True)
class CellSet:
    """A cell or a rectangle of cells `x1,y1..x2,y2`, corners included (x1<=x2, y1<=y2 not required)."""

    span: Span
    x1: int
    y1: int
    x2: int
    y2: int
    piece: Name | None = None

    @property
    def is_rect(self) -> bool:
        return (self.x1, self.y1) != (self.x2, self.y2)


@record(slots=True)
class CountRange:
    """`a..b` or a single count (`low == high`)."""

    span: Span
    low: int
    high: int


@record(slots=True)
class Amount:
    """A count that may scale with the heroes: `3` (amount 3), `heroes` (heroes, 0), `heroes -1`."""

    span: Span
    amount: int
    heroes: bool = False

    def value(self, heroes: int) -> int:
        """Its value with that many heroes (never below 0)."""
        return max(0, self.amount + (heroes if self.heroes else 0))


@record(slots=True)
class EncounterNumber:
    """An encounter's number as written: `2` (alternative None) or `2a` (alternative "a", lower case)."""

    span: Span
    number: int
    alternative: str | None = None

    @property
    def label(self) -> str:
        """`2`, `2a`: how questc writes it."""
        return f"{self.number}{self.alternative or ''}"


# ---- §3 header -----------------------------------------------------------------


@record(slots=True)
class TreacheryPart:
    """One colour of the treachery budget: `colour` is event, trap or monster."""

    span: Span
    colour: Name
    amount: int


HeaderValue = Name | Text | CountRange | int | EncounterNumber | tuple[Name, ...] | tuple[TreacheryPart, ...]


@record(slots=True)
class HeaderField:
    """One header line: `keyword` (id, edition, ...) and its parsed `value`.

    value types: id/edition/reveal/part_of -> Name; expansions, traits -> tuple[Name]; players ->
    CountRange; conquest, act -> int; encounter -> EncounterNumber; treachery ->
    tuple[TreacheryPart]; author, version, intro, special, use -> Text.
    """

    span: Span
    keyword: str
    value: HeaderValue


@record(slots=True)
class Header:
    """`quest "Title" { ... }`: the title and the fields in source order (each at most once, `use` repeatable)."""

    span: Span
    title: Text
    fields: tuple[HeaderField, ...]

    def get(self, keyword: str) -> HeaderField | None:
        for field in self.fields:
            if field.keyword == keyword:
                return field
        return None

    def all(self, keyword: str) -> tuple[HeaderField, ...]:
        return tuple(f for f in self.fields if f.keyword == keyword)

    def packs(self) -> tuple[Text, ...]:
        """The content packs the quest `use`s, as written (paths relative to the quest's folder)."""
        return tuple(f.value for f in self.fields if f.keyword == "use" and isinstance(f.value, Text))


# ---- §4 map --------------------------------------------------------------------


@record(slots=True)
class Piece:
    """`piece ID TYPE at X,Y [turn T]`."""

    span: Span
    id: Name
    type: Name
    at: PointRef
    turn: int = 0


@record(slots=True)
class Door:
    """`door ID ["NAME"] between A B [rune C]` (`between` set) or `door ID ["NAME"] at X,Y SIDE [rune C]`
    (`at`, `side` set). `display`: the name players read, if the writer gave one."""

    span: Span
    id: Name
    between: tuple[Name, Name] | None = None
    at: PointRef | None = None
    side: Name | None = None
    rune: Name | None = None
    display: Text | None = None


@record(slots=True)
class Role:
    """`entrance PIECE, ...` or `exit PIECE, ...` (`role`): the quest's entrances or exits, whatever
    the pieces' types (second edition)."""

    span: Span
    role: str
    pieces: tuple[Name, ...]


@record(slots=True)
class Stairs:
    """`stairs COLOUR ["NAME"] at P P`: one pair of staircase markers."""

    span: Span
    colour: Name
    ends: tuple[PointRef, PointRef]
    display: Text | None = None


# ---- §5 areas ------------------------------------------------------------------


@record(slots=True)
class Pieces:
    """`pieces P, Q`: the map pieces an area is made of."""

    span: Span
    pieces: tuple[Name, ...]


@record(slots=True)
class Cells:
    """`cells A..B C`: the cells an area adds beyond its pieces."""

    span: Span
    cells: tuple[CellSet, ...]


@record(slots=True)
class Read:
    """Read-aloud text (in an area, or as an effect)."""

    span: Span
    text: Text


@record(slots=True)
class Note:
    """Overlord-only note."""

    span: Span
    text: Text


@record(slots=True)
class Glyph:
    """`glyph at P [active]`: a glyph, active (open to teleport) or not."""

    span: Span
    at: PointRef
    active: bool = False


@record(slots=True)
class Monster:
    """`monster TYPE [master] at P... [facing DIR] [players a..b]`: one figure per point."""

    span: Span
    type: Name
    master: bool
    at: tuple[PointRef, ...]
    facing: Name | None = None
    players: CountRange | None = None


@record(slots=True)
class PlaceNamed:
    """`named ID at P [facing DIR]`: where a named monster stands."""

    span: Span
    id: Name
    at: PointRef
    facing: Name | None = None


@record(slots=True)
class Chest:
    """`chest KIND at P...`: chests of one kind."""

    span: Span
    kind: Name
    at: tuple[PointRef, ...]


@record(slots=True)
class Obstacle:
    """`obstacle KIND at CELLS...`: rubble, water, pits and the like."""

    span: Span
    kind: Name
    at: tuple[CellSet, ...]


@record(slots=True)
class Trap:
    """`trap KIND at P... [facing D]`: traps of one kind."""

    span: Span
    kind: Name
    at: tuple[PointRef, ...]
    facing: Name | None = None


@record(slots=True)
class Treasure:
    """`treasure KIND at P...`: treasure markers of one kind."""

    span: Span
    kind: Name
    at: tuple[PointRef, ...]


@record(slots=True)
class Relic:
    """`relic NAME ["DISPLAY"] at P`."""

    span: Span
    name: Name
    at: PointRef
    display: Text | None = None


@record(slots=True)
class Runekey:
    """`runekey COLOUR at P`: the key to the rune doors of its colour."""

    span: Span
    colour: Name
    at: PointRef


@record(slots=True)
class Token:
    """A second edition token (`kind`: search, objective or villager), with an optional identifier
    and name (`villager clergy "Wounded Clergy"`) and an objective's colour, placed (`placement`):

    - `at`: at the points `at`, one token each;
    - `on`: `count` tokens (1 when not given) on the pieces `on`, where the overlord chooses;
    - `among`: `count` tokens at random among the points `at`;
    - `carried`: carried by a hero from the start.
    """

    span: Span
    kind: str
    at: tuple[PointRef, ...]
    colour: Name | None = None
    id: Name | None = None
    display: Text | None = None
    placement: str = "at"
    on: tuple[Name, ...] = ()
    count: Amount | None = None


@record(slots=True)
class Lieutenant:
    """`lieutenant NAME at P [facing DIR]`, or `lieutenant NAME on PIECE, ...` (the overlord picks
    the space; `at` is None): a lieutenant's token (second edition)."""

    span: Span
    name: Name
    at: PointRef | None
    facing: Name | None = None
    on: tuple[Name, ...] = ()


@record(slots=True)
class GroupChange:
    """`all +2 health` (also `all: +2 health`): a change to the figures `who` (all, minions, master) of
    a group; `relative` for a signed amount (added), else the value replaces the card's."""

    span: Span
    who: str
    amount: int
    relative: bool
    stat: Name


@record(slots=True)
class Group:
    """`group TYPE [on PIECE, ...] [minions N] [masters N] [{ CHANGES }]`, a monster group the overlord
    places on those pieces (or anywhere in the area), sized by its monster card for the number of
    heroes unless `minions`/`masters` say; or `open group [ID] [on PIECE, ...]` (`open`, `type`
    None): a group the overlord chooses among the monsters with one of the quest's traits."""

    span: Span
    type: Name | None
    on: tuple[Name, ...] = ()
    minions: Amount | None = None
    masters: Amount | None = None
    changes: tuple[GroupChange, ...] = ()
    open: bool = False
    id: Name | None = None


@record(slots=True)
class HeroStart:
    """`start at P...`: where the heroes start, instead of the entrance's spaces (second edition)."""

    span: Span
    at: tuple[PointRef, ...]


# ---- §7 effects ----------------------------------------------------------------


@record(slots=True)
class ConquestEffect:
    """Heroes gain (positive) or lose (negative) conquest tokens."""

    span: Span
    amount: int


@record(slots=True)
class CoinsEffect:
    """`coins N`: the heroes gain N coins."""

    span: Span
    amount: int


@record(slots=True)
class TreasureEffect:
    """Every hero draws `count` treasure cards of `kind` (copper, silver, gold)."""

    span: Span
    kind: Name
    count: int = 1


@record(slots=True)
class ThreatEffect:
    """`threat N`: the overlord gains N threat."""

    span: Span
    amount: int


@record(slots=True)
class SpawnEffect:
    """`spawn TYPE [master] at P...`: monsters placed when the effect happens."""

    span: Span
    type: Name
    master: bool
    at: tuple[PointRef, ...]


@record(slots=True)
class DoorEffect:
    """`open DOOR` or `close DOOR` (`action`)."""

    span: Span
    action: str
    door: Name


@record(slots=True)
class UnlockEffect:
    """`unlock COLOUR`: the rune doors of that colour unlock."""

    span: Span
    colour: Name


@record(slots=True)
class RevealEffect:
    """`reveal AREA`: the area is revealed."""

    span: Span
    area: Name


@record(slots=True)
class WinEffect:
    """`win SIDE`: that side wins the quest."""

    span: Span
    side: Name


@record(slots=True)
class InstructEffect:
    """An instruction no engine can run, printed for the overlord."""

    span: Span
    text: Text


@record(slots=True)
class PlaceEffect:
    """`place [N] WHAT WHERE [up to limit|N]`: reinforcements or tokens placed during play.

    `kind`: "monster" (`type`, `master`) or a token kind (search, villager, objective with its
    `colour`); where: `on` pieces or `area` (the overlord picks the spaces), or the points `at`;
    `count` (None: 1); `limit`: "group" (up to the group limit) or a number of figures of the type
    on the map (None: no limit)."""

    span: Span
    kind: str
    count: Amount | None = None
    type: Name | None = None
    master: bool = False
    colour: Name | None = None
    on: tuple[Name, ...] = ()
    area: Name | None = None
    at: tuple[PointRef, ...] = ()
    limit: str | int | None = None


@record(slots=True)
class RemoveEffect:
    """`remove TOKEN`: a token the quest named leaves the map (or the hero carrying it)."""

    span: Span
    target: Name


@record(slots=True)
class ReplaceEffect:
    """`replace TOKEN with KIND [COLOUR]`: a token turns into another, in its space."""

    span: Span
    target: Name
    kind: str
    colour: Name | None = None


@record(slots=True)
class CounterEffect:
    """`fatigue +1` (relative) or `fatigue 3` (set): a counter the quest declares changes."""

    span: Span
    counter: Name
    amount: int
    relative: bool = True


Effect = (
    Read
    | ConquestEffect
    | CoinsEffect
    | TreasureEffect
    | ThreatEffect
    | SpawnEffect
    | DoorEffect
    | UnlockEffect
    | RevealEffect
    | WinEffect
    | InstructEffect
    | PlaceEffect
    | RemoveEffect
    | ReplaceEffect
    | CounterEffect
)


@record(slots=True)
class Encounter:
    """`encounter ID ["NAME"] at P { EFFECTS }`: runs when a hero ends movement on it."""

    span: Span
    id: Name
    at: PointRef
    effects: tuple[Effect, ...]
    display: Text | None = None


AreaStatement = (
    Pieces
    | Cells
    | Read
    | Note
    | Glyph
    | Monster
    | PlaceNamed
    | Chest
    | Obstacle
    | Trap
    | Treasure
    | Relic
    | Runekey
    | Encounter
    | Token
    | Lieutenant
    | HeroStart
    | Group
)


@record(slots=True)
class Area:
    """`area ID ["Name"] [start] { ... }`."""

    span: Span
    id: Name
    name: Text | None
    start: bool
    statements: tuple[AreaStatement, ...]


# ---- §6 named monsters -------------------------------------------------------


@record(slots=True)
class StatChange:
    """`wounds +N` (relative: added to the master figure's value) or `wounds N` (replaces it)."""

    span: Span
    stat: str
    value: int
    relative: bool


@record(slots=True)
class Ability:
    """`NAME [RANK]` in `abilities`: one ability, with its rank when it has ranks."""

    span: Span
    name: Name
    rank: int | None = None


@record(slots=True)
class NamedMonster:
    """`named ID "Display Name" TYPE { ... }`."""

    span: Span
    id: Name
    display: Text
    type: Name
    changes: tuple[StatChange, ...] = ()
    abilities: tuple[Ability, ...] = ()
    conquest: int | None = None


# ---- §7 triggers, chests, §7b deck plan ------------------------------------------


@record(slots=True)
class Trigger:
    """`on reveal|killed|open|defeated NAME { ... }` (`target`), `on round N { ... }` (`round`), or a
    recurring rule, event "each": `at start|end of each round|overlord turn|hero turn [if C] { ... }`
    (`phase`, `every`, `condition`)."""

    span: Span
    event: str
    target: Name | None
    round: int | None
    effects: tuple[Effect, ...]
    phase: str | None = None
    every: str | None = None
    condition: Condition | None = None


@record(slots=True)
class CounterDef:
    """`counter ID ["NAME"]`: a named counter, 0 at the start, changed by effects (`ID +1`)."""

    span: Span
    id: Name
    display: Text | None = None


@record(slots=True)
class ChestContent:
    """One item of a chest row: kind is coins, conquest, potion, or a card kind
    (copper, silver, gold, curse, feat) with `amount` (default 1); `name` for potion."""

    span: Span
    kind: str
    amount: int = 1
    name: Name | None = None


@record(slots=True)
class ChestRow:
    """`KIND NUMBER: CONTENT, ...` in `chests`: what one chest of a kind holds."""

    span: Span
    kind: Name
    number: int
    contents: tuple[ChestContent, ...]


@record(slots=True)
class ChestChart:
    """`chests { ... }`: the quest's chest chart, a row per chest."""

    span: Span
    rows: tuple[ChestRow, ...]


@record(slots=True)
class PlanCard:
    """`card "NAME" [xN]` in `overlord`: a card of the overlord's deck, with its copies."""

    span: Span
    name: Text
    copies: int = 1


@record(slots=True)
class PlanGlyph:
    """`dark_glyph NAME` in `overlord`: a dark glyph the overlord's plan uses."""

    span: Span
    name: Name


@record(slots=True)
class OverlordPlan:
    """`overlord { card "..." [xN]; dark_glyph KIND }`."""

    span: Span
    cards: tuple[PlanCard, ...]
    glyphs: tuple[PlanGlyph, ...]


# ---- §8 victory ----------------------------------------------------------------


@record(slots=True)
class EventCondition:
    """`killed NAMED`, `revealed AREA`, `triggered ENCOUNTER`, `opened DOOR`, `defeated GROUP|all`,
    `carried TOKEN to AREA|PIECE|edge` (`event`; `destination` None for `to edge`), or a figure of
    GROUP standing `on` a piece or `in` an area (event "on" or "in"; `destination` the place)."""

    span: Span
    event: str
    target: Name
    destination: Name | None = None


@record(slots=True)
class CompareCondition:
    """`conquest OP N`, `round OP N`, `objectives OP N`, `exited OP N`, or a declared counter's
    `ID OP N` (`counter`; `name` holds the identifier as written, None for the built-in ones).

    `conquest N` means `conquest <= N`, `objectives N` means `objectives >= N`, and a
    bare `exited` means `exited >= 1`.
    """

    span: Span
    counter: str
    op: str
    value: int
    name: Name | None = None


@record(slots=True)
class NotCondition:
    """`not CONDITION`: true while its operand is false."""

    span: Span
    operand: Condition


@record(slots=True)
class AllCondition:
    """`a and b and ...`"""

    span: Span
    operands: tuple[Condition, ...]


@record(slots=True)
class AnyCondition:
    """`a or b or ...`"""

    span: Span
    operands: tuple[Condition, ...]


Condition = EventCondition | CompareCondition | NotCondition | AllCondition | AnyCondition


def compare_conditions(condition: Condition, *, negated: bool = True) -> list[CompareCondition]:
    """Every comparison atom of a condition (`round > 4`, `fatigue >= 6`), in source order; with
    negated=False, those under a `not` left out."""
    if isinstance(condition, CompareCondition):
        return [condition]
    if isinstance(condition, NotCondition):
        return compare_conditions(condition.operand) if negated else []
    if isinstance(condition, (AllCondition, AnyCondition)):
        return [atom for operand in condition.operands for atom in compare_conditions(operand, negated=negated)]
    return []


def event_conditions(condition: Condition, *, negated: bool = True) -> list[EventCondition]:
    """Every `killed`/`revealed`/`triggered`/`opened`/`defeated`/`carried` atom of a condition, in
    source order.

    With negated=False the atoms under a `not` are left out: those are what must *not*
    happen, so they never need to become true.
    """
    if isinstance(condition, EventCondition):
        return [condition]
    if isinstance(condition, NotCondition):
        return event_conditions(condition.operand) if negated else []
    if isinstance(condition, (AllCondition, AnyCondition)):
        return [atom for operand in condition.operands for atom in event_conditions(operand, negated=negated)]
    return []


@record(slots=True)
class Victory:
    """`victory heroes|overlord ["Label"] when CONDITION [then encounter N]`: `next` names the
    encounter the quest goes on to when this victory comes (second edition)."""

    span: Span
    side: Name
    label: Text | None
    when: Condition
    next: EncounterNumber | None = None


# ---- the file -------------------------------------------------------------------


@record(slots=True)
class Comment:
    """A `#` comment, kept for the formatter."""

    span: Span
    text: str


Item = (
    Header
    | Piece
    | Door
    | Stairs
    | Area
    | NamedMonster
    | Trigger
    | ChestChart
    | OverlordPlan
    | Victory
    | Role
    | CounterDef
)


@record(slots=True)
class QuestFile:
    """A whole `.quest` file: its header (None if missing) and its top-level items in order."""

    span: Span
    path: str
    header: Header | None
    items: tuple[Item, ...]

    def of(self, kind: type) -> tuple:
        return tuple(item for item in self.items if isinstance(item, kind))
