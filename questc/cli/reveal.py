"""`questc reveal FILE`: the reveal analysis of a quest, wave by wave (LANGUAGE.md §9).

For each wave, its areas (id and name) and from where each is first seen (the areas
whose reached cells see it, or step or open a door into it with `reveal door`, or
"an effect"); then the areas never revealed and the reveal mode. Exit status: 0 an
answer, 1 the quest has errors (they are printed instead), 2 an unreadable file.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from questc.cli.common import guarded
from questc.cli.los import checked_quest

if TYPE_CHECKING:
    from questc.api import QuestModel

_MODES = {
    "sight": "sight (an area is revealed when a hero can see into it)",
    "door": "door (an area is revealed when a door into it opens or a hero steps into it)",
    "all": "all (the whole map is revealed at the start)",
}


def reveal_report(model: QuestModel, analysis: Any) -> dict[str, Any]:
    # (analysis: the compiled quest's reveal Analysis, a type the front ends do not import)
    """The model and its Analysis in; a plain dict of the waves, sources and unrevealed areas out."""

    def area(area_id: str) -> dict[str, Any]:
        entry = model.areas[area_id]
        return {
            "id": area_id,
            "name": entry.name,
            "start": entry.start,
            "visible_from": list(analysis.visible_from.get(area_id, [])),
        }

    waves = [{"wave": i, "areas": [area(a) for a in wave]} for i, wave in enumerate(analysis.waves)]
    never = [{"id": a, "name": model.areas[a].name} for a, w in analysis.reveal_wave.items() if w is None]
    return {"reveal": model.reveal, "edition": model.edition.name, "waves": waves, "never_revealed": never}


def _source_text(report: dict[str, Any], entry: dict[str, Any], wave: int) -> str:
    if wave == 0:
        return "start area" if entry["start"] else "revealed at the start"
    sources = [s for s in entry["visible_from"] if s != "effect"]
    parts = []
    if sources:
        verb = "seen from" if report["reveal"] == "sight" else "entered from"
        parts.append(f"{verb} {', '.join(sources)}")
    if "effect" in entry["visible_from"]:
        parts.append("revealed by an effect")
    return "; ".join(parts)


@click.command()
@click.argument("file", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as one JSON object.")
@guarded
def reveal(file: str, as_json: bool) -> None:
    """Print the order in which a quest's areas are revealed, and from where each is first seen."""
    quest = checked_quest(file)
    report = reveal_report(quest.model, quest.analysis)
    if as_json:
        click.echo(json.dumps({"file": file, **report}, indent=2))
        return
    click.echo(render_text(report), nl=False)


def render_text(report: dict) -> str:
    """A `reveal_report` dict in; the plain text `questc reveal` prints out (one area a line)."""
    lines = [f"reveal mode: {_MODES.get(report['reveal'], report['reveal'])}; {report['edition']} edition"]
    for wave in report["waves"]:
        lines.append(f"wave {wave['wave']}:")
        width = max(len(a["id"]) for a in wave["areas"])
        for entry in wave["areas"]:
            lines.append(
                f'  {entry["id"]:<{width}}  "{entry["name"]}"  {_source_text(report, entry, wave["wave"])}'.rstrip()
            )
    never = report["never_revealed"]
    lines.append("never revealed: " + (", ".join(f'{a["id"]} "{a["name"]}"' for a in never) or "none"))
    return "\n".join(lines) + "\n"
