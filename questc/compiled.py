"""One quest through every stage: its source, syntax tree, model, board and analysis as one typed product.

questc.pipeline makes a CompiledQuest when every stage ran (the checks may still have
found errors: the preview and the language server show such a quest's map); the rules
read it through their CheckContext, and the emitters, the map drawing, the preview,
the language server, `questc los` and `questc reveal` take it whole. Its fields never
change; the analysis is worked out on first use and kept (the map of a quest whose
pieces overlap may not have one: the reveal checks are skipped for such a quest).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.analysis.reveal import Analysis
    from questc.board.board import Board
    from questc.board.contents import CellContents
    from questc.board.quest_board import QuestBoard
    from questc.catalog.owned import Box, Declared
    from questc.diagnostics.core import Span
    from questc.model.plan import Pricing
    from questc.model.quest import QuestModel
    from questc.syntax.nodes import QuestFile

__all__ = ["CompiledQuest"]


# Frozen at run time too (not a questc.records record): the product a library caller holds.
@dataclass(frozen=True, eq=False, repr=False)
class CompiledQuest:
    """A quest that went through every stage.

    path: the file name diagnostics carry; source: the text checked (after any byte-order
    mark); tree: the syntax tree with spans; comments: each comment's span and text;
    model: every name resolved; quest_board: the board built from the model, with where
    each door stands (`door_edges`, `door_cells`) and the doors it could not place;
    owned_sets: the component sets the user owns (None: the quest's own `expansions`);
    owned_counts: the configuration's `[owned]` table (copies of sets, counts declared).
    """

    path: str
    source: str
    tree: QuestFile
    comments: tuple[tuple[Span, str], ...]
    model: QuestModel
    quest_board: QuestBoard
    owned_sets: tuple[str, ...] | None = None
    owned_counts: Declared | None = None

    def __repr__(self) -> str:
        return f"<CompiledQuest {self.model.id} from {self.path}>"

    @property
    def board(self) -> Board:
        """The map's geometry: floor, walls, doors, stairs, obstacles; movement and line of sight."""
        return self.quest_board.board

    @cached_property
    def analysis(self) -> Analysis:
        """The reveal fixed point: waves, reached cells, unlocked colours (worked out once, on first use)."""
        from questc.analysis import analyse

        return analyse(self.model, self.quest_board)

    @cached_property
    def contents(self) -> dict[tuple[int, int], CellContents]:
        """Every cell something stands on or claims, with what it holds (questc.board.contents)."""
        from questc.board.contents import cell_contents

        return cell_contents(self.model, self.board)

    def contents_of(self, cell: tuple[int, int]) -> CellContents:
        """What stands on one cell: its piece, area, figures, markers, obstacles, stairs and doors."""
        from questc.board.contents import CellContents

        return self.contents.get(cell) or CellContents(cell)

    @property
    def known_analysis(self) -> Analysis | None:
        """The analysis if something has worked it out already, else None (never works it out)."""
        known: Analysis | None = self.__dict__.get("analysis")
        return known

    @cached_property
    def plan(self) -> Pricing | None:
        """The quest's own `overlord { }` deck plan priced against its budget and the sets counted
        (worked out once: the components rules and the engine JSON read it); None without one."""
        if self.model.overlord is None:
            return None
        from questc.model.plan import DeckPlan, price_plan

        return price_plan(DeckPlan.from_syntax(self.model.overlord), self.model, self.sets, self.owned_counts)

    @property
    def sets(self) -> tuple[str, ...]:
        """The sets counted against: those the user owns, else the quest's own `expansions`;
        of them, only the quest's edition's (a first edition box holds no second edition tokens)."""
        sets = tuple(self.owned_sets) if self.owned_sets else tuple(self.model.expansions)
        catalog = self.model.catalog
        return tuple(s for s in sets if catalog.edition_of(s) == self.model.edition.component_edition)

    @cached_property
    def box(self) -> Box:
        """What the component checks count against: the sets counted, the copies and counts declared."""
        from questc.catalog.owned import Box

        return Box(self.model.catalog, self.sets, self.owned_counts)
