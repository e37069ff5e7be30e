"""Checked quests in; their files out: a build (JSON, PNG and PDF per quest, a Valkyrie quest
folder when asked) or a guide (one PDF).

The library half of `questc build` and `questc guide` (questc.api re-exports both);
the commands only print what these return. Nothing is written for a quest with an
error (or, under `strict`, a warning), nor for a quest one of whose renderers failed:
a quest's files are made in memory first and then written all together, each
atomically. A build that would clash (two quests with one id, an output that is one
of the inputs: a source, a content pack, the configuration file) or whose output folder
cannot be made raises OutputRefused before anything is written; a kind that cannot be
made, BuildError.

The Valkyrie export (`valkyrie`, asked for by name) makes one folder per quest, the
encounters of one `part_of` together (questc.emit.valkyrie), for the quests whose edition
exports it (Edition.exports); its own diagnostics (Q7xx) join the quests' and an error
among them stops that folder only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from questc.errors import BuildError, OutputRefused
from questc.options import Options
from questc.pipeline import QuestResult
from questc.records import record

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest
    from questc.diagnostics.core import Diagnostic

__all__ = [
    "DEFAULT_KINDS",
    "KINDS",
    "BuildError",
    "OutputRefused",
    "BuildReport",
    "Emitter",
    "GuideReport",
    "build",
    "emitter",
    "guide",
    "refuse_inputs",
]

KINDS = ("json", "png", "pdf", "play", "valkyrie")
# What a build makes when no kind is named: a Valkyrie folder only when asked for.
DEFAULT_KINDS = ("json", "png", "pdf")
# Kinds made of a whole quest (its encounters together) as a folder, not a file per quest file.
FOLDER_KINDS = ("valkyrie",)


# What an emitter is given: the compiled quest, the diagnostics it compiled with (after the
# policy: the engine JSON records its warnings and infos) and the run's options (the printed
# kinds read the paper and, print-and-play, the square's size).
Render = Callable[["CompiledQuest", Sequence["Diagnostic"], Options], bytes]
# What a build holds open while it renders its quests (an emitter module's `session()`).
Session = Callable[[], AbstractContextManager[object]]

# The file each kind writes for a quest, when not `<id>.<kind>`.
FILE_NAMES = {"play": "{id}-print-and-play.pdf"}


def file_name(kind: str, quest_id: str) -> str:
    """An output kind and a quest's id in; the name of the file it writes out (`three_seals.pdf`,
    `three_seals-print-and-play.pdf`)."""
    return FILE_NAMES.get(kind, "{id}.{kind}").format(id=quest_id, kind=kind)


@record
class Emitter:
    """One output kind: its file suffix, the function turning a compiled quest into bytes and
    the session a build holds open while it renders its quests (nothing, for most kinds)."""

    kind: str
    render: Render
    session: Session = nullcontext


def _json(quest: CompiledQuest, diagnostics: Sequence[Diagnostic], options: Options) -> bytes:
    from questc.emit.engine_json import engine_json

    return engine_json(quest, diagnostics)


def emitter(kind: str) -> Emitter:
    """An output kind in; its Emitter out: the JSON, else `questc.emit.<kind>.render_<kind>(quest,
    paper=...)` with the module's `session()` if it has one (a context a build holds open while it
    renders). ImportError (saying why) when that module is not installed or lacks the function."""
    if kind == "json":
        return Emitter("json", _json)
    module_name, function = f"questc.emit.{kind}", f"render_{kind}"
    try:
        module = import_module(module_name)
    except ImportError as error:
        raise ImportError(f"{module_name} cannot be imported ({error})") from None
    render = getattr(module, function, None)
    if not callable(render):
        raise ImportError(f"{module_name} has no {function}()")

    def printed(quest: CompiledQuest, diagnostics: Sequence[Diagnostic], options: Options) -> bytes:
        extra = {"square_mm": options.square_mm} if kind == "play" else {}
        data: bytes = render(quest, paper=options.paper, **extra)
        return data

    session = getattr(module, "session", None)
    return Emitter(kind, printed, session if callable(session) else nullcontext)


def choose_emitters(kinds: Sequence[str] | None) -> tuple[list[Emitter], list[str]]:
    """The kinds asked for (None: every kind) in; (emitters, notes) out.

    A kind asked for by name that cannot be rendered is a BuildError: the user wants a
    file questc cannot make. With no kinds named, a missing renderer is skipped with a
    note, so a plain build still writes what it can.
    """
    unknown = sorted(set(kinds or ()) - set(KINDS))
    if unknown:
        raise BuildError(f"unknown output kind {', '.join(unknown)}: the kinds are {', '.join(KINDS)}")
    emitters, notes = [], []
    for kind in kinds or DEFAULT_KINDS:
        if kind in FOLDER_KINDS:
            continue
        try:
            emitters.append(emitter(kind))
        except ImportError as error:
            if kinds is not None:
                raise BuildError(
                    f"cannot build {kind}: {error}; install questc with its {kind} renderer, or leave {kind} out"
                ) from None
            notes.append(f"{kind} not built: {error}")
    return emitters, notes


@dataclass
class BuildReport:
    """What a build did. `problems` are renderer failures, `unwritten` write failures (a full
    disk, a read-only folder): either way that quest's files were not written. `notes` say
    which kinds were skipped because their renderer is missing; `not_exported` says which
    Valkyrie quests were not made and why, when no diagnostic does (a quest whose edition
    Valkyrie does not play, an encounter with errors)."""

    results: list[QuestResult]
    strict: bool = False
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unwritten: list[str] = field(default_factory=list)
    not_exported: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Some quest was not built because of its own diagnostics (or did not compile). (A quest
        left out of a Valkyrie export for its edition is said, not a failure: there is nothing
        wrong with it.)"""
        return any(not r.buildable(self.strict) for r in self.results)


# What a worker made of one quest, by kind: the bytes, the Valkyrie export's read Encounter
# (the parent makes the folder of a whole quest), or the renderer's exception.
Rendered = dict[str, dict[str, object]]


def _quests(
    quests: Iterable[Path | str | QuestResult], options: Options, jobs: int, kinds: list[str]
) -> tuple[list[QuestResult], Rendered | None]:
    """Paths or results in; results (and, with jobs > 1, each quest's rendered outputs) out."""
    from questc.discovery import find_quests
    from questc.pipeline import check_file

    given = list(quests)
    checked = [q for q in given if isinstance(q, QuestResult)]
    if len(checked) == len(given):
        return checked, None
    paths = find_quests((q for q in given if not isinstance(q, QuestResult)), options)  # its `exclude` too
    if jobs > 1 and len(paths) > 1:
        return _in_parallel(paths, options, kinds, jobs)
    return [check_file(path, options) for path in paths], None


def _inputs(results: list[QuestResult], options: Options) -> list[tuple[Path, str]]:
    """Every file the run read, with what it is: quest sources, content packs, the configuration."""
    files = [(Path(r.path), "source") for r in results]
    for result in results:
        if result.summary is not None:
            files += [(pack, "content pack") for pack in result.summary.pack_files]
    if options.config_file is not None:
        files.append((Path(options.config_file), "configuration"))
    return files


def _same_file(a: Path, b: Path) -> bool:
    """True when two paths name one file (symlinks resolved; hard links caught when both exist).
    A path the system cannot resolve (a link that loops, a name too long) names no input."""
    try:
        if a.resolve() == b.resolve():
            return True
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError for a link loop
        pass
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _refuse_to_overwrite(target: Path, inputs: list[tuple[Path, str]], option: str = "-o") -> None:
    for source, what in inputs:
        if _same_file(target, source):
            raise OutputRefused(
                f"refusing to overwrite the {what} {source} with {target}: choose another output ({option})"
            )


def refuse_inputs(
    target: Path | str,
    results: Iterable[QuestResult],
    options: Options,
    more: Iterable[tuple[Path, str]] = (),
    option: str = "-o",
) -> None:
    """Raise OutputRefused when `target` (a report, a page, a sheet) is one of the files a run read:
    a quest source, a content pack, the configuration, or one of `more` ((path, what it is)).
    `lint -o` and `preview --export` ask this before they write, as build and guide do."""
    _refuse_to_overwrite(Path(target), _inputs(list(results), options) + list(more), option)


def _plan(results: list[QuestResult], out_dir: Path, emitters: list[Emitter], inputs: list[tuple[Path, str]]) -> None:
    """Refuse a build that would clash: two quests with one id, or an output that is an input."""
    by_id: dict[str, list[str]] = {}
    for result in results:
        if result.summary is not None:
            by_id.setdefault(result.summary.id, []).append(result.path)
    clashes = {qid: paths for qid, paths in by_id.items() if len(paths) > 1}
    if clashes:
        lines = [f"`{qid}` in {', '.join(paths)}" for qid, paths in sorted(clashes.items())]
        raise OutputRefused(
            "two quests with the same id would write the same files: "
            + "; ".join(lines)
            + " (give one of them another `id` in its header)"
        )
    for result in results:
        if result.summary is not None:
            for e in emitters:
                _refuse_to_overwrite(out_dir / file_name(e.kind, result.summary.id), inputs)
    try:
        if out_dir.exists() and not out_dir.is_dir():
            raise OutputRefused(f"the output {out_dir} exists and is not a folder")
    except OSError as error:  # a name too long, a link that loops
        raise OutputRefused(f"cannot write into {out_dir}: {error.strerror or error}") from None


def _plan_folders(results: list[QuestResult], out_dir: Path, inputs: list[tuple[Path, str]]) -> None:
    """Refuse a Valkyrie export that would clash: a quest's id that is another's `part_of`, a
    folder that holds an input, a folder in the way that questc did not make."""
    from questc.emit.valkyrie import made_by_questc

    parts = {r.summary.part_of for r in results if r.summary is not None and r.summary.part_of}
    folders: dict[str, str] = {}
    for result in results:
        model = result.summary
        if model is None:
            continue
        if model.part_of is None and model.id in parts:
            raise OutputRefused(
                f"the quest `{model.id}` ({result.path}) and the encounters `part_of {model.id}` "
                "would both be exported to Valkyrie as the folder "
                f"{(out_dir / model.id).as_posix()} (give one of them another name)"
            )
        folders.setdefault(model.part_of or model.id, result.path)
    for folder in folders:
        target = out_dir / folder
        for source, what in inputs:
            if _same_file(target, source) or any(_same_file(target, parent) for parent in source.resolve().parents):
                raise OutputRefused(
                    f"refusing to replace the folder {target.as_posix()}, which holds the {what} "
                    f"{source}: choose another output (-o)"
                )
        if target.is_symlink() or (target.exists() and not (target.is_dir() and made_by_questc(target))):
            raise OutputRefused(
                f"{target.as_posix()} is in the way: it is not a Valkyrie quest questc exported, "
                "and the export replaces its folder whole (move it, or choose another output with -o)"
            )


def build(
    quests: Iterable[Path | str | QuestResult],
    out_dir: Path | str = "build",
    *,
    kinds: Sequence[str] | None = None,
    options: Options | None = None,
    jobs: int = 1,
    on_checked: Callable[[list[QuestResult]], None] | None = None,
) -> BuildReport:
    """Quest files, folders or checked results in; DIR/<id>.json (.png, .pdf) for each quest
    that compiled clean, and a BuildReport, out.

    `kinds` limits the outputs (None: json, png and pdf, those installed; `valkyrie` adds
    DIR/<quest>/, a Valkyrie quest folder per quest, its encounters together). `jobs` > 1
    checks and renders quests in that many processes (same bytes). `on_checked` is called
    with every result once all are checked and before anything is written (the CLI prints
    diagnostics there). Each quest gets the kinds its edition exports (Edition.exports).
    Raises OutputRefused, with nothing written, for a clash (two quests with one id, an output
    that is an input) or an output folder that cannot be made; BuildError for a kind that
    cannot be made. A quest whose files the system refuses (a full disk) is in `unwritten`.
    """
    options = options or Options()
    emitters, notes = choose_emitters(kinds)
    folders = [k for k in (kinds or DEFAULT_KINDS) if k in FOLDER_KINDS]
    if any(e.kind == "pdf" for e in emitters):
        _check_source_date_epoch()
    results, rendered = _quests(quests, options, jobs, [e.kind for e in emitters] + folders)
    report = BuildReport(results, strict=options.strict, notes=notes)
    exports, added = _export(results, rendered, options, report) if folders else ([], {})
    if added:
        # What is reported (and decides the exit status) holds the export's diagnostics too; the
        # quests rendered keep only their own, so a quest's JSON is the same with or without it.
        report.results = [_with(r, added.get(r.path, ([], []))) for r in results]
    if on_checked is not None:
        on_checked(report.results)
    out = Path(out_dir)
    inputs = _inputs(results, options)
    _plan(results, out, emitters, inputs)
    if folders:
        _plan_folders(results, out, inputs)
    # Only what compiled completely: a quest with no error but a stage that did not run
    # is never written half-made (BuildReport.failed counts it).
    buildable = [r for r in results if r.buildable(options.strict)]
    from questc.emit.atomic import recover, replace_folder_atomic

    if buildable or any(made.files for made in exports):
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a read-only mount, a full disk, a file in the way
            raise OutputRefused(f"cannot make the output folder {out.as_posix()}: {error.strerror or error}") from None
    if out.is_dir():
        recover(out)  # what a build killed while writing here left: finished or removed

    with ExitStack() as sessions:
        for e in emitters if buildable and rendered is None else []:
            sessions.enter_context(e.session())
        _write_quests(buildable if emitters else [], emitters, rendered, options, out, report)
    for made in exports:
        if not made.files:
            continue
        try:
            report.written.append(replace_folder_atomic(out / made.folder, made.files))
        except OSError as error:
            report.unwritten.append(
                f"cannot write {(out / made.folder).as_posix()}: {error.strerror or error}; "
                "the Valkyrie quest was not written"
            )
    return report


def _with(result: QuestResult, added: tuple[list[Diagnostic], list[Diagnostic]]) -> QuestResult:
    """A checked quest with the export's diagnostics joined to its own: (before the policy,
    after it), each list kept in order."""
    from questc.diagnostics.core import Diagnostic

    raw, shown = added
    return replace(
        result,
        diagnostics=sorted(result.diagnostics + shown, key=Diagnostic.sort_key),
        all_diagnostics=sorted(result.all_diagnostics + raw, key=Diagnostic.sort_key),
    )


def _export(
    results: list[QuestResult], rendered: Rendered | None, options: Options, report: BuildReport
) -> tuple[list, dict[str, tuple[list, list]]]:
    """The checked quests in; their Valkyrie exports (questc.emit.valkyrie), one per quest, and the
    export's diagnostics by quest file (before and after the run's policy) out. A quest with an
    error, or whose encounter has one, is not exported; one whose edition does not export to
    Valkyrie cannot be (both said in `report.not_exported`). An export whose diagnostics stop
    it has no files."""
    from questc.diagnostics.core import Severity
    from questc.emit.valkyrie import Encounter, export, folder_of, read
    from questc.options import apply_policy

    blocked: dict[str, str] = {}
    encounters: list[Encounter] = []
    for result in results:
        if not result.buildable(options.strict):
            if result.summary is not None:
                blocked.setdefault(result.summary.part_of or result.summary.id, result.path)
            continue
        try:
            encounter = (
                read(result.compiled)
                if result.compiled is not None
                else rendered[result.path]["valkyrie"]
                if rendered is not None
                else None
            )
            if isinstance(encounter, Exception):
                raise encounter
            if not isinstance(encounter, Encounter):
                raise TypeError(f"the export read {type(encounter).__name__}, not an Encounter")
        except Exception as error:
            if os.environ.get("QUESTC_DEBUG"):
                raise
            report.problems.append(
                f"internal error while exporting {result.path} to Valkyrie: {type(error).__name__}: {error}"
            )
            blocked.setdefault(result.path, result.path)
            continue
        if folder_of(encounter) not in blocked:
            encounters.append(encounter)
    for folder, path in blocked.items():
        if folder != path:
            report.not_exported.append(f"{folder}: not exported to Valkyrie, as {path} has errors")
    added: dict[str, tuple[list, list]] = {}
    made, refused = [], []
    for quest in export(encounters):
        if quest.refused:
            refused += quest.paths
            continue
        shown = apply_policy(quest.diagnostics, options)
        for found, index in ((quest.diagnostics, 0), (shown, 1)):
            for diagnostic in found:
                added.setdefault(diagnostic.span.file, ([], []))[index].append(diagnostic)
        if any(d.severity is Severity.ERROR or (options.strict and d.severity is Severity.WARNING) for d in shown):
            quest.files = {}
        made.append(quest)
    if refused:
        from questc.emit.valkyrie import editions_exporting
        from questc.words import plural

        edition_of = {r.path: r.summary.edition for r in results if r.summary is not None}
        played = " and ".join(e.name for e in editions_exporting())
        for name in dict.fromkeys(edition_of.get(path, "") for path in refused):
            paths = [path for path in refused if edition_of.get(path, "") == name]
            report.not_exported.append(
                f"{plural(len(paths), f'{name} edition quest')} not exported to Valkyrie, "
                f"which plays {played} edition quests only: {', '.join(paths)}"
            )
    return made, added


def _exported(emitters: list[Emitter], edition: str) -> list[Emitter]:
    """The emitters of the kinds a quest's edition exports (Edition.exports), in the build's order."""
    from questc.editions import edition as edition_named

    exports = edition_named(edition).exports
    return [e for e in emitters if e.kind in exports]


def _write_quests(
    buildable: list[QuestResult],
    emitters: list[Emitter],
    rendered: Rendered | None,
    options: Options,
    out: Path,
    report: BuildReport,
) -> None:
    """Each buildable quest's files, rendered (unless workers did) and written all or none."""
    from questc.emit.atomic import write_all_atomic

    for result in buildable:
        assert result.summary is not None  # every stage ran
        if rendered is None and result.compiled is not None:
            # The checks are done and the renderers draw from the analysis: the sight
            # caches would only add to the pictures' memory (a third on the largest map).
            result.compiled.board.forget_sight()
        files: dict[Path, bytes] = {}
        for e in _exported(emitters, result.summary.edition):
            target = out / file_name(e.kind, result.summary.id)
            try:
                data = _render(e, result, options) if rendered is None else rendered[result.path][e.kind]
                if isinstance(data, Exception):
                    raise data
            except Exception as error:  # one renderer's failure must not stop the other quests
                if os.environ.get("QUESTC_DEBUG"):
                    raise
                report.problems.append(f"internal error while making {target}: {type(error).__name__}: {error}")
                break
            if not isinstance(data, (bytes, bytearray)):
                report.problems.append(
                    f"internal error: the {e.kind} renderer returned "
                    f"{type(data).__name__}, not bytes; {target} not made"
                )
                break
            files[target] = bytes(data)
        else:
            try:
                report.written += write_all_atomic(files)
            except OSError as error:  # a full disk or a read-only folder: say so, go on
                report.unwritten.append(
                    f"cannot write {Path(error.filename).as_posix()}: "
                    f"{error.strerror or error}; none of {result.path}'s files written"
                )


def _render(e: Emitter, result: QuestResult, options: Options) -> bytes:
    """One output of one quest that compiled; the printed kinds on the paper the run asks for."""
    assert result.compiled is not None
    return e.render(result.compiled, result.diagnostics, options)


def _check_and_render(path: Path, options: Options, kinds: list[str]) -> tuple[QuestResult, dict[str, object]]:
    """One quest, in a worker process: check it and, when it compiled, render every kind its
    edition exports.

    Returns the slim report (the compiled quest does not cross processes: the parent
    prints and plans with the diagnostics and the summary), and kind -> bytes (the Valkyrie
    export's read Encounter, which the parent makes a quest's folder of) or the renderer's
    exception.
    """
    from questc.pipeline import check_file

    result = check_file(path, options)
    outputs: dict[str, object] = {}
    if result.buildable(options.strict) and result.compiled is not None:
        result.compiled.board.forget_sight()  # as in a serial build
        exports = result.compiled.model.edition.exports
        for kind in kinds:
            try:
                if kind in FOLDER_KINDS:  # the export refuses the editions it does not play
                    from questc.emit.valkyrie import read

                    outputs[kind] = read(result.compiled)
                elif kind in exports:
                    outputs[kind] = _render(emitter(kind), result, options)
            except Exception as error:  # noqa: BLE001 - reported by the parent, in order, as a serial build would
                outputs[kind] = error
    return result.slim(), outputs


def _in_parallel(
    inputs: list[Path], options: Options, kinds: list[str], jobs: int
) -> tuple[list[QuestResult], Rendered]:
    """Check and render the quests in `jobs` worker processes; results in input order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Workers from a fresh interpreter (forkserver, else spawn), never a fork of this process:
    # a fork of a process whose PDF engine (typst) has started its threads hangs in the child.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(inputs)), mp_context=context) as pool:
        done = list(pool.map(_check_and_render, inputs, [options] * len(inputs), [kinds] * len(inputs)))
    return [slim for slim, _ in done], {slim.path: outputs for slim, outputs in done}


@dataclass
class GuideReport:
    """What a guide holds: the quests included (in order) and those left out for their diagnostics."""

    results: list[QuestResult]
    included: list[QuestResult]
    left_out: list[QuestResult]
    written: Path | None = None


def guide(
    quests: Iterable[Path | str | QuestResult],
    output: Path | str,
    *,
    title: str | None = None,
    author: str | None = None,
    options: Options | None = None,
    progress: Callable[[int], None] | None = None,
    two_sided: bool | None = None,
    date: str | None = None,
    print_and_play: bool = False,
) -> GuideReport:
    """Quest files, folders or checked results in; one printable PDF guide of those that compiled
    clean, written atomically to `output` (nothing is written when no quest is left).

    The quests come in the configuration's `guide.order` (quest ids or file names; quests it
    does not name follow, in the order given), else in the order given, a second edition
    quest's encounters together under one heading. `title`, `author`, `two_sided` and `date`
    default to the configuration's `guide` table (the date then to SOURCE_DATE_EPOCH's day);
    the paper is `options.paper`. The book: a title page, the contents, each quest (from a
    right-hand page when two-sided; with `print_and_play`, its map at game size and its tokens
    after it, at `options.square_mm`), the index of monsters and components (questc.emit.guide).

    Quests given as paths are checked and laid out one at a time: each quest's sheet is
    spooled to a temporary folder and the quest let go before the next is read, the report
    keeps a slim record of each (path, source, diagnostics, id; no board), and each quest is
    typeset alone, so memory stays flat in the number of quests. `progress` is called with 1
    after each quest is checked (and laid out, when it is in the guide). Raises OutputRefused,
    with nothing written, when the output is a folder or one of the inputs (a source, a
    content pack, the configuration) or cannot be written, and BuildError when `guide.order`
    names a quest that is not there.
    """
    import shutil
    import tempfile

    from questc.discovery import find_quests
    from questc.pipeline import check_file

    options = options or Options()
    _check_source_date_epoch()
    target = Path(output)
    try:
        is_folder = target.is_dir()
    except OSError as error:  # a name too long
        raise OutputRefused(f"cannot write {target}: {error.strerror or error}") from None
    if is_folder:
        raise OutputRefused(f"the output {target} is a folder: give a file name, such as {target / 'guide.pdf'}")
    given = list(quests)
    checked = [q for q in given if isinstance(q, QuestResult)]
    checked_here = len(checked) < len(given)
    stream: Iterable[QuestResult] = (
        checked
        if not checked_here
        else (check_file(path, options) for path in find_quests(q for q in given if not isinstance(q, QuestResult)))
    )
    from questc.emit.guide import Book

    spool = Path(tempfile.mkdtemp(prefix="questc-guide-"))
    try:
        book = Book(
            spool,
            title=title or options.guide_title,
            author=author or options.guide_author,
            paper=options.paper,
            two_sided=options.guide_two_sided if two_sided is None else two_sided,
            date=date or options.guide_date or _epoch_date(),
            print_and_play=print_and_play,
            square_mm=options.square_mm,
        )
        results: list[QuestResult] = []
        laid_out: dict[int, str] = {}  # id() of a kept result -> its key in the book
        for result in stream:
            _refuse_to_overwrite(target, _inputs([result], options))
            kept = result.slim() if checked_here else result
            results.append(kept)
            if result.buildable(options.strict) and result.compiled is not None:
                if checked_here:
                    result.compiled.board.forget_sight()  # checked: only its pictures from here
                laid_out[id(kept)] = book.add(result.compiled, key=f"{len(laid_out)}:{result.path}").key
            del result  # before the next quest is checked
            if progress is not None:
                progress(1)
        results = ordered(results, options.guide_order)
        included = encounters_together([r for r in results if id(r) in laid_out])
        report = GuideReport(results, included, [r for r in results if id(r) not in laid_out])
        if not included:
            return report
        data = book.write([laid_out[id(r)] for r in included])
    finally:
        shutil.rmtree(spool, ignore_errors=True)
    from questc.emit.atomic import write_atomic

    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    except OSError as error:
        raise OutputRefused(f"cannot write {target}: {error.strerror or error}") from None
    report.written = target
    return report


def _epoch_date() -> str | None:
    """SOURCE_DATE_EPOCH's day ("26 November 2026") for a guide's title page, else None: a guide
    carries no date of its own unless asked (the same bytes on every run)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value.isdigit():
        return None
    import datetime as dt

    day = dt.datetime.fromtimestamp(int(value), dt.timezone.utc)
    months = (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    )  # not the locale's: the book is in English
    return f"{day.day} {months[day.month - 1]} {day.year}"


def _check_source_date_epoch() -> None:
    """SOURCE_DATE_EPOCH, when set, stamps the PDFs' dates (docs/ci.md): refuse one that is not
    a moment the PDF can carry before anything is checked or written (a date past the year
    9999 failed every quest's PDF with an internal error; words were silently ignored)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if value and not (value.isdigit() and len(value) <= 12 and int(value) <= 253_402_300_799):
        shown = value if len(value) <= 24 else value[:21] + "..."
        raise BuildError(
            f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 "
            f"(at most 253402300799, the end of year 9999), not {shown!r}"
        )


def encounters_together(results: list[QuestResult]) -> list[QuestResult]:
    """Quests in; the same, with the encounters of each second edition quest (one `part_of`)
    one after the other in encounter order, where the first of them stood. Other quests
    keep their places."""

    def quest_of(result: QuestResult) -> str | None:
        return result.summary.part_of if result.summary is not None else None

    def encounter(result: QuestResult) -> tuple[int, str]:
        summary = result.summary
        return ((summary.encounter or 0), summary.alternative or "") if summary is not None else (0, "")

    out: list[QuestResult] = []
    placed: set[str] = set()
    for result in results:
        key = quest_of(result)
        if key is None:
            out.append(result)
        elif key not in placed:
            placed.add(key)
            out += sorted((r for r in results if quest_of(r) == key), key=encounter)
    return out


def ordered(results: list[QuestResult], order: Sequence[str]) -> list[QuestResult]:
    """Results in; the same in the configured order out: each entry of `order` names a quest by id,
    file name or file stem; the quests it does not name follow in the order given."""
    if not order:
        return list(results)

    def names(result: QuestResult) -> set[str]:
        path = Path(result.path)
        found = {path.name, path.stem}
        if result.summary is not None:
            found.add(result.summary.id)
        return found

    chosen: list[QuestResult] = []
    for entry in order:
        match = [r for r in results if entry in names(r) and r not in chosen]
        if not match:
            raise BuildError(f"`guide.order` names {entry!r}, which is not among the quests given")
        chosen += match
    return chosen + [r for r in results if r not in chosen]
