"""Q5xx: the resolved quest in (and its reveal analysis when there is one); diagnostics out for the
quest's logic: victory, chests, encounters, player counts, conquest and the length of printed texts."""
from __future__ import annotations

import importlib.util
import textwrap
from collections import defaultdict

from questc.diagnostics.codes import q5xx
from questc.diagnostics.core import Diagnostic, Label
from dataclasses import dataclass
from questc.syntax import nodes as n

GAME_PLAYERS = (2, 5)     # Descent is played by 2 to 5 players, the overlord included
GLYPH_CONQUEST = 3        # heroes gain 3 conquest for each glyph they activate
MAX_LABELS = 8


def run(context) -> list[Diagnostic]:
    """A CheckContext in, the Q501-Q508 diagnostics out."""
    model = context.model
    found: list[Diagnostic] = []
    found += heroes_victory(model)
    found += chest_chart(model)
    found += empty_encounters(model)
    found += player_counts(model)
    found += starting_conquest(model)
    found += conquest_available(model, reach_of(context))
    found += text_lengths(model)
    return found


# ---- Q501 ------------------------------------------------------------------------------------


def heroes_victory(model) -> list[Diagnostic]:
    """Q501 when no `victory heroes` is written, at the quest's title."""
    if any(v.side.value == "heroes" for v in model.victories):
        return []
    labels = [Label(v.side.span, "only the overlord can win") for v in model.victories][:MAX_LABELS]
    return [q5xx.Q501.at(model.header_span(), labels=labels, help=_victory_suggestion(model))]


def _victory_suggestion(model) -> str:
    """A concrete heroes' victory built from what the quest has: a named monster, a far area, an encounter."""
    if model.named:
        condition = f"killed {next(iter(model.named))}"
    elif any(not a.start for a in model.areas.values()):
        condition = f"revealed {[a.id for a in model.areas.values() if not a.start][-1]}"
    elif model.encounters:
        condition = f"triggered {next(iter(model.encounters))}"
    else:
        condition = "killed NAMED"
    return f'add the heroes\' goal, e.g. `victory heroes "Label" when {condition}`'


# ---- Q502, Q503 ------------------------------------------------------------------------------


def chest_chart(model) -> list[Diagnostic]:
    """Q502 for a chest type placed more often than the chart has rows; Q503 for rows of a type never placed."""
    placed = defaultdict(list)
    for marker in model.markers:
        if marker.kind == "chest":
            placed[marker.variant].append(marker)
    rows = defaultdict(list)
    chart = model.chest_chart
    for row in chart.rows if chart is not None else ():
        rows[row.kind.value].append(row)
    found = []
    for chest, markers in placed.items():
        numbers = {row.number for row in rows[chest]}     # a number written twice is still one row
        if len(markers) <= len(numbers):
            continue
        short = len(markers) - len(numbers)
        missing, k = [], 1
        while len(missing) < short:
            if k not in numbers:
                missing.append(k)
            k += 1
        missing_text = " and ".join(f"`{chest} {k}: ...`" for k in missing[:3]) + (" ..." if short > 3 else "")
        labels = [Label(m.span, "nor for this one") for m in markers[len(numbers) + 1:]]
        labels += [Label(row.kind.span, f"row {chest} {row.number}") for row in rows[chest]]
        if not rows[chest]:
            labels.append(Label(chart.span, f"no {chest} rows here") if chart is not None
                          else Label(model.header_span(), "this quest has no `chests` chart"))
        found.append(q5xx.Q502.at(markers[len(numbers)].span, labels=labels[:MAX_LABELS], count=len(markers),
                                  chest=chest, rows=len(numbers), row_word=_rows(len(numbers)),
                                  missing=("rows " if short > 1 else "a row ") + missing_text))
    for chest, chest_rows in rows.items():
        if placed.get(chest):
            continue
        labels = [Label(row.kind.span, "and this row") for row in chest_rows[1:]][:MAX_LABELS]
        found.append(q5xx.Q503.at(chest_rows[0].kind.span, labels=labels, rows=len(chest_rows), chest=chest,
                                  row_word=_rows(len(chest_rows))))
    return found


def _rows(count: int) -> str:
    return "row" if count == 1 else "rows"


# ---- Q504 ------------------------------------------------------------------------------------


def empty_encounters(model) -> list[Diagnostic]:
    """Q504 for each encounter whose block is empty (a `read` or an `instruct` is text, so not empty)."""
    return [q5xx.Q504.at(e.node.id.span, name=e.id) for e in model.encounters.values() if not e.node.effects]


# ---- Q505 ------------------------------------------------------------------------------------


def player_counts(model) -> list[Diagnostic]:
    """Q505: the quest's `players` outside 2..5, and figures' `players` outside the quest's range."""
    found = []
    low, high = model.players
    game_low, game_high = GAME_PLAYERS
    field = model.header.get("players") if model.header is not None else None
    quest_labels = [Label(field.value.span, f"the quest is for {_range(low, high)} players")] if field else []
    if field is not None and (low < game_low or high > game_high):
        fixed = _range(max(low, game_low), min(high, game_high)) if max(low, game_low) <= min(high, game_high) \
            else _range(game_low, game_high)
        found.append(q5xx.Q505.at(
            field.value.span, problem=f"the quest is for {_range(low, high)} players, but Descent is played by "
                                      f"{game_low} to {game_high} (the overlord included)",
            label=f"outside {game_low}..{game_high}", help=f"write `players {fixed}`"))
    for area in model.areas.values():
        for stmt in area.node.statements:
            if not isinstance(stmt, n.Monster) or stmt.players is None:
                continue
            f_low, f_high = stmt.players.low, stmt.players.high
            if low <= f_low and f_high <= high:
                continue
            inside = (max(f_low, low), min(f_high, high))
            what = f"{stmt.type.value}{' master' if stmt.master else ''}"
            if inside[0] > inside[1]:
                problem = (f"this {what} is only for {_range(f_low, f_high)} players, a count the quest "
                           f"({_range(low, high)}) never has: it never appears")
                help = f"give it player counts within {_range(low, high)}, or remove it"
            else:
                problem = (f"this {what} is for {_range(f_low, f_high)} players, "
                           f"beyond the quest's {_range(low, high)}")
                help = f"write `players {_range(*inside)}`"
            found.append(q5xx.Q505.at(stmt.players.span, problem=problem, label="outside the quest's players",
                                      labels=quest_labels, help=help))
    return found


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


# ---- Q506 ------------------------------------------------------------------------------------


def starting_conquest(model) -> list[Diagnostic]:
    """Q506 when the header gives no `conquest`, or fewer than 1."""
    if model.conquest is None:
        return [q5xx.Q506.at(model.header_span(), label="no `conquest` in this header",
                             problem="the quest does not say how much conquest the heroes start with "
                                     "(`conquest N` is required)")]
    if model.conquest < 1:
        return [q5xx.Q506.at(model.header_span("conquest"), label="at least 1 is needed",
                             problem=f"the heroes start with {model.conquest} conquest: "
                                     "the overlord wins before the first turn")]
    return []


# ---- Q507 ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """What the reveal analysis says the heroes can get to: cells, revealed areas and opened doors."""

    cells: frozenset
    areas: frozenset | None = None
    doors: frozenset | None = None


def reach_of(context) -> Reach | None:
    """The heroes' reach from the context's reveal analysis, or None when there is none to ask."""
    if importlib.util.find_spec("questc.analysis") is None:
        return None
    try:
        analysis = context.analysis
    except ImportError:
        return None   # the analysis stage is not (fully) installed: count the whole map
    except Exception:
        # The phase runner skips the reveal checks on a map with placement errors;
        # the analysis of such a map may fail. Those errors are reported already, and
        # this note then falls back to the whole map, as it says.
        return None
    cells = getattr(analysis, "reached", None)
    if cells is None:
        return None
    areas = getattr(analysis, "revealed", None)
    doors = getattr(analysis, "opened_doors", None)
    return Reach(frozenset(cells), frozenset(areas) if areas is not None else None,
                 frozenset(doors) if doors is not None else None)


def conquest_available(model, reach: Reach | None) -> list[Diagnostic]:
    """Q507: the conquest on the map (reachable parts only, when the analysis says what they are)."""
    if model.conquest is None or model.conquest < 1:
        return []   # Q506 says what is wrong; there is nothing to weigh the map against
    reached = reach.cells if reach is not None else None

    def reachable(cell) -> bool:
        return reached is None or cell in reached

    def named_reachable(named_id: str) -> bool:
        if reached is None:
            return True
        for figure in model.figures:
            if figure.named == named_id:
                # Heroes attack from a cell next to it; figures never block the analysis.
                return any((x + dx, y + dy) in reached for x, y in figure.cells
                           for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        return False

    parts = {"glyphs": 0, "chests": 0, "encounters": 0, "triggers": 0, "named monsters": 0}
    parts["glyphs"] = GLYPH_CONQUEST * sum(1 for m in model.markers
                                           if m.kind == "glyph" and not m.active and reachable(m.at))
    chests = defaultdict(int)
    for marker in model.markers:
        if marker.kind == "chest" and reachable(marker.at):
            chests[marker.variant] += 1
    by_type = defaultdict(list)
    for row in model.chest_chart.rows if model.chest_chart is not None else ():
        by_type[row.kind.value].append(sum(c.amount for c in row.contents if c.kind == "conquest"))
    for chest, count in chests.items():
        # Which numbered marker lies where is random: the best `count` rows are the most they can gain.
        parts["chests"] += sum(sorted(by_type[chest], reverse=True)[:count])
    for encounter in model.encounters.values():
        if reachable(encounter.at):
            parts["encounters"] += _gains(encounter.node.effects)
    for trigger in model.triggers:
        if _trigger_reachable(model, trigger, reach, named_reachable):
            parts["triggers"] += _gains(trigger.effects)
    for named in model.named.values():
        if named.node.conquest and named_reachable(named.id):
            parts["named monsters"] += max(named.node.conquest, 0)
    available = sum(parts.values())
    detail = ", ".join(f"{word} {value}" for word, value in parts.items() if value)
    where = "on the map" if reach is None else "where they can reach"
    return [q5xx.Q507.at(model.header_span("conquest"), start=model.conquest, available=available,
                         where=where, detail=f" ({detail})" if detail else "")]


def _gains(effects) -> int:
    """The conquest effects' gains (losses are left out: this counts what the heroes can gain)."""
    return sum(e.amount for e in effects if isinstance(e, n.ConquestEffect) and e.amount > 0)


def _trigger_reachable(model, trigger: n.Trigger, reach: Reach | None, named_reachable) -> bool:
    if reach is None or trigger.event == "round":
        return True
    target = trigger.target.value if trigger.target is not None else None
    if trigger.event == "killed":
        return named_reachable(target)
    if trigger.event == "reveal":
        if reach.areas is not None:
            return target in reach.areas
        area = model.areas.get(target)
        return area is not None and bool(area.cells & reach.cells)
    if trigger.event == "open" and reach.doors is not None:
        return target in reach.doors
    return True


# ---- Q508 ------------------------------------------------------------------------------------


def printed_lines(text: str, width: int = q5xx.BOX_WIDTH) -> int:
    """A text in, the lines it fills in a box `width` characters wide (wrapped at word breaks) out."""
    return sum(max(1, len(textwrap.wrap(line, width))) for line in text.strip("\n").split("\n"))


def text_lengths(model) -> list[Diagnostic]:
    """Q508 for each read-aloud text, intro or special rules too long for a printed box."""
    texts: list[tuple[str, n.Text]] = []
    header = model.header
    for keyword, what in (("intro", "intro"), ("special", "special rules text")):
        field = header.get(keyword) if header is not None else None
        if field is not None:
            texts.append((what, field.value))
    for area in model.areas.values():
        for stmt in area.node.statements:
            if isinstance(stmt, n.Read):
                texts.append((f"read-aloud text of area {area.id}", stmt.text))
    for encounter in model.encounters.values():
        texts += [(f"read-aloud text of encounter `{encounter.id}`", e.text)
                  for e in encounter.node.effects if isinstance(e, n.Read)]
    for trigger in model.triggers:
        texts += [("read-aloud text", e.text) for e in trigger.effects if isinstance(e, n.Read)]
    found = []
    for what, text in texts:
        lines = printed_lines(text.value)
        if lines > q5xx.BOX_LINES:
            found.append(q5xx.Q508.at(text.span, what=what, lines=lines, limit=q5xx.BOX_LINES,
                                      characters=len(text.value.strip()), width=q5xx.BOX_WIDTH,
                                      excess=lines - q5xx.BOX_LINES))
    return found
