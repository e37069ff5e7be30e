"""The library API: quest files in, checked quests and their printed files out.

    from questc.api import build, check_file, guide
    result = check_file(Path("quests/drowned.quest"))
    for d in result.diagnostics: ...
    if result.compiled is not None:        # every stage ran: the CompiledQuest
        board = result.compiled.board
    report = build(["quests"], "out", kinds=["json"])      # out/<id>.json per clean quest
    guide(["quests"], "guide.pdf", title="Our campaign")
    imported = import_quest("valkyrie", "MyQuest/")         # a Valkyrie quest as .quest text

The command line, the language server and the preview server are thin layers over this
module (with the packages they render with: questc.emit, questc.draw); nothing below it
knows they exist. The work is done below: questc.pipeline (the stages, QuestResult,
CompiledQuest), questc.discovery (which files), questc.build (the files written).

The names a front end needs besides checking (building, configuration, fixes, the
formatter, the rules' registry, deck plans, the catalog, the syntax tree) are
re-exported here too, each imported on first use: `import questc.api` stays cheap, and a
lint imports nothing of the build.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from questc.compiled import CompiledQuest
from questc.diagnostics.core import Applicability, Diagnostic, Fix, Label, Severity, Span
from questc.discovery import find_quests
from questc.errors import FormatterError, ImportFailed, PlanError, QuestcError
from questc.files import read_input
from questc.limits import MAX_PACK_BYTES, MAX_QUEST_BYTES
from questc.options import Options, apply_policy
from questc.paths import config_files, project_root
from questc.pipeline import QuestResult, QuestSummary, check_bytes, check_file, check_source, undecodable
from questc.words import plural

if TYPE_CHECKING:  # the names below are imported on first use (__getattr__); `X as X` re-exports them
    from questc.board.contents import (
        CellContents as CellContents,
    )
    from questc.board.contents import (
        cell_contents as cell_contents,
    )
    from questc.board.quest_board import (
        remember as remember_boards,
    )
    from questc.build import (
        DEFAULT_KINDS as DEFAULT_KINDS,
    )
    from questc.build import (
        KINDS as KINDS,
    )
    from questc.build import (
        BuildError as BuildError,
    )
    from questc.build import (
        BuildReport as BuildReport,
    )
    from questc.build import (
        GuideReport as GuideReport,
    )
    from questc.build import (
        OutputRefused as OutputRefused,
    )
    from questc.build import (
        build as build,
    )
    from questc.build import (
        guide as guide,
    )
    from questc.build import (
        refuse_inputs as refuse_inputs,
    )
    from questc.catalog import (
        Catalog as Catalog,
    )
    from questc.catalog import (
        builtin_catalog as builtin_catalog,
    )
    from questc.catalog.draw import (
        catalog_listing as catalog_listing,
    )
    from questc.catalog.draw import (
        draw_piece as draw_piece,
    )
    from questc.config import (
        find_config as find_config,
    )
    from questc.config import (
        load_options as load_options,
    )
    from questc.config import (
        show_settings as show_settings,
    )
    from questc.editions import (
        Edition as Edition,
    )
    from questc.editions import (
        edition as edition,
    )
    from questc.editions import (
        find as find_edition,
    )
    from questc.editions import (
        names as edition_names,
    )
    from questc.fixes import (
        allowed as allowed,
    )
    from questc.fixes import (
        apply_fixes as apply_fixes,
    )
    from questc.fixes import (
        compatible_fixes as compatible_fixes,
    )
    from questc.fixes import (
        fix_source as fix_source,
    )
    from questc.fmt import (
        format_source as format_source,
    )
    from questc.fmt.starter import (
        encounter_pair as encounter_pair,
    )
    from questc.fmt.starter import (
        starter_quest as starter_quest,
    )
    from questc.importer import (
        Imported as Imported,
    )
    from questc.importer import (
        import_quest as import_quest,
    )
    from questc.model.plan import (
        COLOUR_GEMS as COLOUR_GEMS,
    )
    from questc.model.plan import (
        COLOURS as COLOURS,
    )
    from questc.model.plan import (
        MAX_HAND as MAX_HAND,
    )
    from questc.model.plan import (
        POINTS_PER_CARD as POINTS_PER_CARD,
    )
    from questc.model.plan import (
        STARTING_HAND as STARTING_HAND,
    )
    from questc.model.plan import (
        DeckPlan as DeckPlan,
    )
    from questc.model.plan import (
        Pricing as Pricing,
    )
    from questc.model.plan import (
        load_plan as load_plan,
    )
    from questc.model.quest import (
        AreaModel as AreaModel,
    )
    from questc.model.quest import (
        DoorModel as DoorModel,
    )
    from questc.model.quest import (
        Figure as Figure,
    )
    from questc.model.quest import (
        Marker as Marker,
    )
    from questc.model.quest import (
        ObstacleModel as ObstacleModel,
    )
    from questc.model.quest import (
        QuestModel as QuestModel,
    )
    from questc.model.quest import (
        StairsModel as StairsModel,
    )
    from questc.project import (
        diagnostic_page as diagnostic_page,
    )
    from questc.project import (
        project_urls as project_urls,
    )
    from questc.quest_sets import (
        check_sets as check_sets,
    )
    from questc.rules import (
        Rule as Rule,
    )
    from questc.rules import (
        descriptor as descriptor,
    )
    from questc.rules import (
        descriptors as descriptors,
    )
    from questc.rules import (
        find_rule as find_rule,
    )
    from questc.rules.components import (
        check_plan as check_plan,
    )
    from questc.syntax import (
        nodes as nodes,
    )
    from questc.syntax import (
        parse_source as parse_source,
    )
    from questc.syntax.incremental import (
        IncrementalParser as IncrementalParser,
    )
    from questc.syntax.parser import (
        literals as literals,
    )
    from questc.syntax.parser import (
        quest_parser as quest_parser,
    )

# name -> (module, attribute): imported when first asked for.
_DEFERRED: dict[str, tuple[str, str]] = {
    **{name: ("questc.board.contents", name) for name in ("CellContents", "cell_contents")},
    "remember_boards": ("questc.board.quest_board", "remember"),
    # a lint needs no build: its module and what it imports are a tenth of a small quest's lint
    **{
        name: ("questc.build", name)
        for name in (
            "DEFAULT_KINDS",
            "KINDS",
            "BuildError",
            "BuildReport",
            "GuideReport",
            "OutputRefused",
            "build",
            "guide",
            "refuse_inputs",
        )
    },
    **{name: ("questc.catalog", name) for name in ("Catalog", "builtin_catalog")},
    **{name: ("questc.catalog.draw", name) for name in ("catalog_listing", "draw_piece")},
    **{name: ("questc.config", name) for name in ("find_config", "load_options", "show_settings")},
    "Edition": ("questc.editions", "Edition"),
    "edition": ("questc.editions", "edition"),
    "find_edition": ("questc.editions", "find"),
    "edition_names": ("questc.editions", "names"),
    **{name: ("questc.fixes", name) for name in ("allowed", "apply_fixes", "compatible_fixes", "fix_source")},
    "format_source": ("questc.fmt", "format_source"),
    **{name: ("questc.fmt.starter", name) for name in ("encounter_pair", "starter_quest")},
    **{name: ("questc.importer", name) for name in ("Imported", "import_quest")},
    **{
        name: ("questc.model.quest", name)
        for name in ("AreaModel", "DoorModel", "Figure", "Marker", "ObstacleModel", "QuestModel", "StairsModel")
    },
    **{
        name: ("questc.model.plan", name)
        for name in (
            "COLOUR_GEMS",
            "COLOURS",
            "MAX_HAND",
            "POINTS_PER_CARD",
            "STARTING_HAND",
            "DeckPlan",
            "Pricing",
            "load_plan",
        )
    },
    "diagnostic_page": ("questc.project", "diagnostic_page"),
    "project_urls": ("questc.project", "project_urls"),
    "check_sets": ("questc.quest_sets", "check_sets"),
    **{name: ("questc.rules", name) for name in ("Rule", "descriptor", "descriptors", "find_rule")},
    "check_plan": ("questc.rules.components", "check_plan"),
    **{name: ("questc.syntax", name) for name in ("nodes", "parse_source")},
    "IncrementalParser": ("questc.syntax.incremental", "IncrementalParser"),
    **{name: ("questc.syntax.parser", name) for name in ("literals", "quest_parser")},
}

__all__ = [
    # checking and building
    "check_source",
    "check_file",
    "check_bytes",
    "undecodable",
    "find_quests",
    "QuestResult",
    "QuestSummary",
    "CompiledQuest",
    "Options",
    "apply_policy",
    # diagnostics, errors, limits, files, words
    "Applicability",
    "Diagnostic",
    "Fix",
    "Label",
    "Severity",
    "Span",
    "QuestcError",
    "PlanError",
    "FormatterError",
    "ImportFailed",
    "MAX_PACK_BYTES",
    "MAX_QUEST_BYTES",
    "read_input",
    "plural",
    "config_files",
    "project_root",
    # imported on first use
    *_DEFERRED,
]


def __getattr__(name: str) -> object:
    """A deferred name (see _DEFERRED): imported from its home on first use, then kept here."""
    home = _DEFERRED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home[0]), home[1])
    globals()[name] = value
    return value
