"""Q804 encounters-disagree: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member, encounter_words

Q804 = Descriptor(
    code="Q804",
    name="encounters-disagree",
    severity=Severity.WARNING,
    template="{this} says {shown} where {first} says {theirs}, in `{quest}`",
    label_template="{label}",
    help_template="{help_text}",
    summary="Encounters of one quest whose headers disagree on what the whole quest shares: its edition, "
    "players, component sets or act.",
    explanation="""
The encounters of a quest are one game: the same players play them all, with the same
box, in the same act of a campaign. A header that says otherwise in one encounter
(`players 2..4` where the others say `2..5`, another set in `expansions`, `act 2` in an
act I quest) is a slip, and the guide and the Valkyrie export would each take one of
them at random. Say it the same in every file (or leave it out everywhere).
""",
    example=Example(
        failing=encounter("toll_1", "1", extra="  players 2..5\n") + encounter("toll_2", "2", extra="  players 2..4\n"),
        fixed=encounter("toll_1", "1", extra="  players 2..5\n") + encounter("toll_2", "2", extra="  players 2..5\n"),
    ),
    fields=("this", "shown", "first", "theirs", "quest", "label", "help_text"),
)


def _facts(member: Member) -> list[tuple[str, object, str]]:
    """(field, its value, how a message writes it) of a member's header."""
    h = member.header
    return [
        ("edition", h.edition, f"`edition {h.edition}`"),
        ("players", h.players, f"`players {h.players[0]}..{h.players[1]}`"),
        ("expansions", frozenset(h.expansions), f"`expansions {', '.join(h.expansions)}`"),
        ("act", h.act, "no `act`" if h.act is None else f"`act {h.act}`"),
    ]


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q804 (warning): a header fact of an encounter that differs from the first encounter's (each field
    once per file, at the field or the header)."""
    out = []
    for quest, members in quests.items():
        if len(members) < 2:
            continue
        first = members[0]
        for member in members[1:]:
            for (field, value, shown), (_, theirs, theirs_shown) in zip(_facts(member), _facts(first)):
                if value == theirs:
                    continue
                span = getattr(member.header, f"{field}_span") if field != "edition" else member.header.header
                out.append(
                    Q804.at(
                        span,
                        this=encounter_words(member.label),
                        shown=shown,
                        first=encounter_words(first.label),
                        theirs=theirs_shown,
                        quest=quest,
                        label=f"{theirs_shown} in {first.path}",
                        help_text=f"give every encounter of `{quest}` the same {field} (or leave it out of every one)",
                    )
                )
    return out


RULE = Rule(Q804, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
