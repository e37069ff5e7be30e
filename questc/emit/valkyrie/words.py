"""The English the exported Valkyrie quest speaks to its players, in one place.

The quest's own texts (intro, read-aloud, rules, labels) are the writer's; these are
the export's: what a token is, what to do with a door, who won. Victory conditions and
effects Valkyrie shows as text are worded by the quest sheet (templates/sheet/words.j2),
so a condition reads the same in the app as on paper.
"""

from __future__ import annotations

from questc.words import plural_of

CONTINUE = "Continue"
CLOSE = "Close"
OPEN = "Open the door"
SEARCH = "Search it"
PICK_UP_HERO = "A hero picks it up"
PICK_UP_MONSTER = "A monster picks it up"
NO = "No"
END_QUEST = "End the quest"
NEXT_ENCOUNTER = "On to encounter {number}"

SEARCH_TOKEN = (
    "A search token. A hero in or next to its space may search it as an action: he draws "
    "a Search card, and the token is discarded."
)
OBJECTIVE_TOKEN = (
    "An objective token{colour}. A hero in or next to its space may pick it up as an action "
    "and carries it from then on."
)
OBJECTIVE_TOKEN_MONSTERS = " A monster may pick it up the same way."
VILLAGER_TOKEN = "A villager: one of the quest's characters."
DOOR = "{name}. A hero next to this door may open it as an action."
SPECIAL_RULES = "<b>Special rules</b>"
VICTORY = "<b>Victory</b>"
HEROES_WIN_WHEN = "The heroes win: {what}."
OVERLORD_WINS_WHEN = "The overlord wins: {what}."
EXIT_QUESTION = (
    "Did heroes leave the map from the exit's edge spaces this round? Each hero who has done so counts once."
)
HEROES_LEFT = "{count} left"
SIDE_WINS = {"heroes": "The heroes win.", "overlord": "The overlord wins."}
QUEST_OVER = "The quest is over."
QUEST_GOES_ON = "The quest goes on with encounter {number}."
ENCOUNTER = "<b>Encounter {number}: {title}</b>"
START = {
    "entrance": "Place the heroes on the entrance's spaces. The heroes take the first turn.",
    "start_at": "Place the heroes on the marked spaces. The heroes take the first turn.",
    "area": "Place the heroes in {area}. The heroes take the first turn.",
}
PLACE_GROUP = "Place the {monsters} as shown."
PLACE_ON = "Place {what} as shown, on {where}."
PLACE_OPEN = (
    "Place the open group as shown, on {where}: the app has chosen a monster with one of this "
    "quest's traits ({traits})."
)
GROUP_CHANGES = "The whole group: {changes}."
CARRIED = "A hero carries {name} from the start: give it to one of the heroes."
CARRIED_QUESTION = "Does a hero carrying {name} stand on {where} now?"
OFF_THE_MAP = "an edge space of an entrance or exit, leaving the map"
STANDS_QUESTION = "Does a {name} stand on {where} now?"
RULE_QUESTION = "Does this hold now: {condition}?"
YES = "Yes"
PLACE_ONE = "Place {name} as shown."
PLACE_NAMED = "Place {name} ({monster}) as shown: a master {monster} with these rules."


def monsters(type_name: str) -> str:
    """A catalog monster type (goblin_archer) in; its plural for a sentence out (goblin archers)."""
    return plural_of(type_name.replace("_", " "))


def lieutenant(name: str) -> str:
    """A lieutenant's catalog name (sir_alric_farrow) in; how players read it out (Sir Alric Farrow)."""
    return name.replace("_", " ").title()


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def paragraphs(text: str | None) -> str:
    """A quest text as written (soft-wrapped lines, blank lines between paragraphs) in; one line per
    paragraph, paragraphs a blank line apart, out."""
    from questc.emit.sheet import paragraphs as split

    return "\n\n".join(split(text))
