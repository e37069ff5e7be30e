"""The library API: quest files in, checked quests and their printed files out.

    from questc.api import build, check_file, guide
    result = check_file(Path("quests/drowned.quest"))
    for d in result.diagnostics: ...
    report = build(["quests"], "out", kinds=["json"])      # out/<id>.json per clean quest
    guide(["quests"], "guide.pdf", title="Our campaign")
    imported = import_quest("valkyrie", "MyQuest/")         # a Valkyrie quest as .quest text

The command line, the language server and the preview server are thin layers over this
module; nothing below it knows they exist.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.errors import QuestcError
from questc.limits import MAX_MAP_CELLS, MAX_MAP_SIDE
from questc.options import Options, apply_policy

if TYPE_CHECKING:   # imported when a stage runs: `import questc.api` stays cheap
    from questc.model.quest import QuestModel
    from questc.rules.context import CheckContext
    from questc.syntax.nodes import QuestFile

__all__ = ["QuestResult", "Options", "check_source", "check_file", "find_quests", "QuestcError",
           "build", "guide", "BuildReport", "GuideReport", "BuildError", "OutputRefused", "KINDS", "import_quest",
           "Imported", "ImportFailed"]


@dataclass
class QuestResult:
    """One quest checked: its source, the stages' products (None where a stage did not run), diagnostics."""

    path: str
    source: str
    syntax: QuestFile | None = None
    model: QuestModel | None = None
    context: CheckContext | None = None     # the board and the analysis
    diagnostics: list[Diagnostic] = field(default_factory=list)   # after the policy, sorted
    all_diagnostics: list[Diagnostic] = field(default_factory=list)   # before the policy
    comments: tuple[tuple[Span, str], ...] = ()   # each comment's span and text
    seconds: float | None = None   # how long the check took, when the caller timed it (JUnit's `time`)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors) or (strict and bool(self.warnings))

    @property
    def compiled(self) -> bool:
        """True when the quest has no error and every stage ran."""
        return self.context is not None and not self.errors


def _sorted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    unique: dict[tuple, Diagnostic] = {}
    for d in diagnostics:
        unique.setdefault((d.code, d.span, d.message), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)


def check_source(source: str, path: str = "<quest>", options: Options | None = None) -> QuestResult:
    """Run every stage on one quest's text: parse, resolve, build the board, analyse, check."""
    from questc.model import resolve
    from questc.rules.context import CheckContext
    from questc.rules.runner import run_checks, run_header_checks
    from questc.syntax import parse_source

    options = options or Options()
    result = QuestResult(path, source)
    parsed = parse_source(source, path)
    result.syntax, result.comments = parsed.tree, parsed.comments
    found = list(parsed.diagnostics)
    if parsed.tree is not None and not any(d.severity is Severity.ERROR for d in found):
        packs = [(p, None, options.packs_base or Path.cwd()) for p in options.packs]
        model, names = resolve(parsed.tree, packs=packs, root=options.root)
        result.model = model
        found += names
        oversized = _map_too_large(model) if model.resolved else None
        if oversized is not None:
            found.append(oversized)   # exact sight on such a map would take minutes: refuse
        elif model.resolved and not any(d.severity is Severity.ERROR for d in names):
            context = CheckContext(model, options.owned_sets, source, options.owned_counts)
            found += run_checks(context)
            result.context = context
        else:
            found += run_header_checks(CheckContext(model, options.owned_sets, source, options.owned_counts))
    from questc.suppress import apply_suppressions  # `# questc: ignore[...]` needs the source and comments
    complete = result.context is not None and not any(d.severity is Severity.ERROR for d in found)   # no phase skipped
    found = apply_suppressions(found, source, result.comments, path, complete=complete)
    result.all_diagnostics = _sorted(found)
    result.diagnostics = apply_policy(result.all_diagnostics, options)
    return result




def _map_too_large(model: QuestModel) -> Diagnostic | None:
    """Q006 on the piece that takes the map past MAX_MAP_CELLS or MAX_MAP_SIDE, else None."""
    from questc.rules.syntax.beyond_limits import Q006
    cells: set[tuple[int, int]] = set()
    x0 = y0 = x1 = y1 = 0
    for piece in model.pieces.values():
        if piece is None:
            continue
        for x, y in piece.shape.cells:
            x0, x1 = (x, x) if not cells else (min(x0, x), max(x1, x))
            y0, y1 = (y, y) if not cells else (min(y0, y), max(y1, y))
            cells.add((x, y))
        if cells and (len(cells) > MAX_MAP_CELLS or x1 - x0 >= MAX_MAP_SIDE or y1 - y0 >= MAX_MAP_SIDE):
            return Q006.at(piece.node.id.span if hasattr(piece.node, "id") else piece.node.span,
                           problem=f"the map grows to {len(cells):,} floor cells spanning "
                                   f"{x1 - x0 + 1} x {y1 - y0 + 1} here, too large to check",
                           label="the map is too large from this piece on",
                           help_text=f"a map holds at most {MAX_MAP_CELLS:,} cells within "
                                     f"{MAX_MAP_SIDE} x {MAX_MAP_SIDE}")
    return None


def check_file(path: Path | str, options: Options | None = None) -> QuestResult:
    from questc.files import NotARegularFile, TooLarge, read_input
    from questc.limits import MAX_QUEST_BYTES

    path = Path(path)
    try:
        data = read_input(path, MAX_QUEST_BYTES)
    except NotARegularFile as error:
        raise QuestcError(f"cannot read {path}: it is {error.kind}, not a quest file") from None
    except TooLarge as error:   # refused before it is read: Q006 on its first line
        from questc.syntax.parser import too_large
        result = QuestResult(str(path), "")
        result.diagnostics = result.all_diagnostics = [too_large(str(path), "", error.size, unit="bytes")]
        return result
    except OSError as error:
        raise QuestcError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return undecodable(str(path), data, error)
    return check_source(source, str(path), options)


def undecodable(path: str, data: bytes, error: UnicodeDecodeError) -> QuestResult:
    """The result for bytes that are not UTF-8: one Q001 at the first bad byte (its `source` is
    the text with replacement characters, for showing; `syntax` is None)."""
    from questc.diagnostics.core import Span
    from questc.rules.syntax.unexpected_input import Q001
    line = data[:error.start].count(b"\n") + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
    result = QuestResult(path, data.decode("utf-8", errors="replace"))
    result.diagnostics = result.all_diagnostics = [Q001.at(
        Span(path, line, column, line, column + 1), found="found a byte that is not UTF-8 text",
        expected="UTF-8 text", label="not UTF-8", help="save the file as UTF-8")]
    return result


def find_quests(paths: Iterable[Path | str], options: Options | None = None,
                excluded: list[Path] | None = None) -> list[Path]:
    """Files and folders in; every `.quest` file among them (folders searched recursively), sorted, unique.

    Files and folders found in a search are passed over when `options.exclude` or
    `options.extend_exclude` match them (default: DEFAULT_EXCLUDE, such as `.git`,
    `.venv`, `build`, `node_modules`); paths named directly are always taken, unless
    `options.force_exclude` (as pre-commit, which names every staged file, needs).
    Each path passed over is appended to `excluded` when a list is given.
    """
    import os

    options = options or Options()
    skipped = excluded if excluded is not None else []
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir() and not path.is_file():
            if path.exists():   # a named pipe, a socket, a device: never a quest, and may block
                raise QuestcError(f"{raw} is not a regular file or folder")
            raise QuestcError(f"no such file or folder: {raw}")
        if options.force_exclude and _excluded_with_parents(path, options):
            skipped.append(path)
            continue
        if path.is_dir():
            inside: list[Path] = []
            for folder, folders, files in os.walk(path):
                here = Path(folder)
                kept = []
                for name in sorted(folders):
                    if options.excluded(here / name):
                        skipped.append(here / name)   # pruned: nothing below it is searched
                    else:
                        kept.append(name)
                folders[:] = kept
                for name in files:
                    if name.endswith(".quest") and (here / name).is_file():
                        (skipped if options.excluded(here / name) else inside).append(here / name)
            found += sorted(inside)
        elif path.is_file():
            found.append(path)
    return list(dict.fromkeys(found))


def _excluded_with_parents(path: Path, options: Options) -> bool:
    """With force-exclude: is a path named directly, or a folder it is in, excluded? Folders are
    looked at up to the project's root (the configuration's folder, else the current one), so a
    checkout that happens to live below a folder called `build` is not excluded whole."""
    import os

    root = Path(os.path.realpath(options.per_file_base or Path.cwd()))
    absolute = Path(os.path.realpath(path.parent if str(path.parent) else ".")) / path.name
    if options.excluded(absolute):
        return True
    for parent in absolute.parents:
        if parent == root or root not in parent.parents:
            break
        if options.excluded(parent):
            return True
    return False


from questc.build import KINDS, BuildError, BuildReport, GuideReport, OutputRefused, build, guide  # noqa: E402
from questc.errors import ImportFailed  # noqa: E402
from questc.importer import Imported, import_quest  # noqa: E402
