"""A quest's bytes or text in; its report out: every stage run in order, each checking its own limits.

    read      the file: a regular file of at most MAX_QUEST_BYTES, UTF-8      (Q006, Q001)
    parse     questc.syntax: the syntax tree with spans, and its comments     (Q0xx)
    resolve   questc.model: every name looked up in the quest and the catalog (Q1xx)
    board     questc.board: the map built (at most MAX_MAP_CELLS)             (Q006, then Q2xx)
    check     questc.rules over the CompiledQuest (the analysis on demand)   (Q2xx-Q5xx)
    suppress  questc.suppress: `# questc: ignore[...]` comments               (Q6xx)
    policy    questc.options.apply_policy: select, ignore, severities

A stage runs only when the stages before it found no error. The report (QuestResult)
holds the diagnostics and, when every stage ran, the CompiledQuest; questc.api and
questc.build are the layers above.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.errors import QuestcError
from questc.options import Options, apply_policy
from questc.records import record

if TYPE_CHECKING:  # imported when a stage runs: `import questc.pipeline` stays cheap
    from questc.compiled import CompiledQuest
    from questc.model.quest import EncounterHeader, QuestModel
    from questc.syntax.nodes import QuestFile
    from questc.syntax.parser import ParseResult

__all__ = ["QuestResult", "QuestSummary", "check_source", "check_file", "check_bytes", "undecodable"]


@record
class QuestSummary:
    """What a report keeps of a resolved quest after its products are let go (QuestResult.slim):
    its id, its edition's name, the quest and encounter it belongs to (a quest of several
    encounters), the content packs it read."""

    id: str
    edition: str
    part_of: str | None = None
    encounter: int | None = None
    pack_files: tuple[Path, ...] = ()
    alternative: str | None = None
    # What the quest's other encounters must agree with (questc.quest_sets); None for a lone quest.
    encounters: EncounterHeader | None = None

    @classmethod
    def of(cls, model: QuestModel) -> QuestSummary:
        return cls(
            model.id,
            model.edition.name,
            model.part_of,
            model.encounter,
            tuple(model.catalog.pack_files),
            model.alternative,
            model.encounter_header(),
        )


@dataclass
class QuestResult:
    """The report of one quest checked: its diagnostics and, when every stage ran, the CompiledQuest.

    `compiled` is made even when the checks found errors (the preview and the language
    server show such a quest); a quest is built only when `buildable`. `tree` and `model`
    are what the stages made as far as they got, for an editor on a quest that does not
    compile yet (None where a stage did not run; `model.resolved` False when a name is
    unknown). `summary` is kept when `slim()` lets the rest go; `complete` says whether
    every stage ran (kept too).
    """

    path: str
    source: str
    diagnostics: list[Diagnostic] = field(default_factory=list)  # after the policy, sorted
    all_diagnostics: list[Diagnostic] = field(default_factory=list)  # before the policy
    compiled: CompiledQuest | None = None
    tree: QuestFile | None = None
    comments: tuple[tuple[Span, str], ...] = ()  # each comment's span and text
    model: QuestModel | None = None
    summary: QuestSummary | None = None
    complete: bool = False
    seconds: float | None = None  # how long the check took, when the caller timed it (JUnit's `time`)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors) or (strict and bool(self.warnings))

    def buildable(self, strict: bool = False) -> bool:
        """Every stage ran and the quest has no error (under `strict`, no warning): its files may be made."""
        return self.complete and not self.failed(strict)

    def slim(self) -> QuestResult:
        """The same report without the quest's products (tree, model, board): what a long run keeps."""
        return replace(self, compiled=None, tree=None, comments=(), model=None)


def _sorted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    unique: dict[tuple, Diagnostic] = {}
    for d in diagnostics:
        unique.setdefault((d.code, d.span, d.message), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)


def _has_error(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def check_source(
    source: str, path: str = "<quest>", options: Options | None = None, *, parsed: ParseResult | None = None
) -> QuestResult:
    """One quest's text in; its report out (every stage whose inputs are sound, in order).

    `parsed`: the parse of `source` when the caller has it (the language server's
    incremental parse, questc.syntax.incremental, equal to `parse_source(source, path)`)."""
    from questc.board.quest_board import map_too_large, quest_board
    from questc.compiled import CompiledQuest
    from questc.model import resolve
    from questc.rules.context import CheckContext, HeaderContext
    from questc.rules.runner import run_checks, run_header_checks
    from questc.syntax import parse_source

    options = options or Options()
    result = QuestResult(path, source)
    if parsed is None:
        parsed = parse_source(source, path)
    result.tree, result.comments = parsed.tree, parsed.comments
    found = list(parsed.diagnostics)
    if parsed.tree is not None and not _has_error(found):
        packs = [(p, None, options.packs_base or Path.cwd()) for p in options.packs]
        model, names = resolve(parsed.tree, packs=packs, root=options.root)
        result.model, result.summary = model, QuestSummary.of(model)
        found += names
        # The board stage's limit is checked on every resolved map, even one whose names
        # have other errors: a map that size is refused whatever else is wrong with it.
        oversized = map_too_large(model) if model.resolved else None
        if oversized is not None:
            found.append(oversized)
        elif model.resolved and not _has_error(names):
            compiled = CompiledQuest(
                path,
                source,
                parsed.tree,
                parsed.comments,
                model,
                quest_board(model),
                options.owned_sets,
                options.owned_counts,
            )
            found += run_checks(CheckContext(compiled))
            result.compiled, result.complete = compiled, True
        else:  # the checks of the header alone, so their errors come with the name errors
            found += run_header_checks(HeaderContext(model, source))
    from questc.suppress import apply_suppressions  # `# questc: ignore[...]` needs the source and comments

    complete = result.complete and not _has_error(found)  # no phase skipped
    found = apply_suppressions(found, source, result.comments, path, complete=complete)
    result.all_diagnostics = _sorted(found)
    result.diagnostics = apply_policy(result.all_diagnostics, options)
    return result


def check_bytes(data: bytes, path: str, options: Options | None = None, *, limit: int | None = None) -> QuestResult:
    """A quest's bytes in; its report out: Q006 when there are more than `limit` (a stream read up to
    the limit and one byte more), Q001 at the first byte that is not UTF-8, else check_source."""
    if limit is not None and len(data) > limit:
        from questc.syntax.parser import too_large

        return _refused(path, "", too_large(path, "", limit, "bytes", over=True))
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return undecodable(path, data, error)
    return check_source(source, path, options)


def check_file(path: Path | str, options: Options | None = None) -> QuestResult:
    """A quest file in; its report out. A file over MAX_QUEST_BYTES is refused (Q006) before it is
    read; QuestcError for a path that is not a readable regular file."""
    from questc.files import NotARegularFile, TooLarge, read_input
    from questc.limits import MAX_QUEST_BYTES

    path = Path(path)
    try:
        data = read_input(path, MAX_QUEST_BYTES)
    except NotARegularFile as error:
        raise QuestcError(f"cannot read {path}: it is {error.kind}, not a quest file") from None
    except TooLarge as error:  # refused before it is read: Q006 on its first line
        from questc.syntax.parser import too_large

        return _refused(str(path), "", too_large(str(path), "", error.size, unit="bytes"))
    except OSError as error:
        raise QuestcError(f"cannot read {path}: {error.strerror or error}") from None
    return check_bytes(data, str(path), options)


def undecodable(path: str, data: bytes, error: UnicodeDecodeError) -> QuestResult:
    """The report for bytes that are not UTF-8: one Q001 at the first bad byte (its `source` is
    the text with replacement characters, for showing; `tree` is None)."""
    from questc.syntax.codes import Q001

    line = data[: error.start].count(b"\n") + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
    return _refused(
        path,
        data.decode("utf-8", errors="replace"),
        Q001.at(
            Span(path, line, column, line, column + 1),
            found="found a byte that is not UTF-8 text",
            expected="UTF-8 text",
            label="not UTF-8",
            help="save the file as UTF-8",
        ),
    )


def _refused(path: str, source: str, diagnostic: Diagnostic) -> QuestResult:
    """The report of an input no stage could read: one diagnostic, which no policy hides."""
    return QuestResult(path, source, diagnostics=[diagnostic], all_diagnostics=[diagnostic])
