"""Diagnostics with fixes and a quest's text in; the text with the fixes applied out.

The command line (`questc lint --fix`, `--diff`) and the language server share this:

    from questc.fixes import apply_fixes, fix_source
    text, applied = apply_fixes(source, [(d, d.fixes[0]) for d in diagnostics if d.fixes])
    run = fix_source(source, "quests/drowned.quest", unsafe=True)   # check, fix, check again...

A pass applies every chosen fix whose edits overlap no edit already taken (a fix is
applied whole or not at all; the first by position wins, the others wait for the
next pass), then checks the new text again; passes repeat until no fix is left, the
text stops changing, or MAX_PASSES. A file with syntax errors gets only the fixes of
its syntax errors, and a run whose text still has syntax errors at the end is not
`writable`: the command line never writes such a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from questc.diagnostics.core import Applicability, Diagnostic, Edit, Fix, Severity

if TYPE_CHECKING:
    from questc.pipeline import QuestResult

__all__ = [
    "MAX_PASSES",
    "FixRun",
    "apply_fixes",
    "chosen_fixes",
    "compatible_fixes",
    "fix_source",
    "has_syntax_errors",
    "is_syntax",
]

# Each pass re-checks the whole quest (about 0.1 s); real fixes settle in two or three.
MAX_PASSES = 10


def is_syntax(d: Diagnostic) -> bool:
    """A syntax diagnostic (Q0xx): the parse itself failed or a value is malformed."""
    return d.code.startswith("Q0")


def has_syntax_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(is_syntax(d) and d.severity is Severity.ERROR for d in diagnostics)


def allowed(fix: Fix, unsafe: bool) -> bool:
    return fix.applicability is Applicability.SAFE or unsafe


def chosen_fixes(diagnostics: Sequence[Diagnostic], unsafe: bool = False) -> list[tuple[Diagnostic, Fix]]:
    """The fix to try for each diagnostic: its first allowed one (safe only, unless `unsafe`).

    With syntax errors present only their own fixes are chosen: positions found in a
    broken parse are not trusted for anything else.
    """
    syntax_only = has_syntax_errors(diagnostics)
    out = []
    for d in diagnostics:
        if syntax_only and not is_syntax(d):
            continue
        fix = next((f for f in d.fixes if allowed(f, unsafe) and f.edits), None)
        if fix is not None:
            out.append((d, fix))
    return out


def _bounds(edit: Edit) -> tuple[int, int]:
    return edit.span.start, edit.span.end


def _clash(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Do two edits' ranges overlap? Two insertions at one point clash too (their order is unclear),
    and so does an insertion inside a replaced range; an edit ending where another starts does not."""
    (s1, e1), (s2, e2) = a, b
    if s1 < e2 and s2 < e1:
        return True
    if s1 == s2 and (s1 == e1 or s2 == e2):
        return True
    return (s1 == e1 and s2 < s1 < e2) or (s2 == e2 and s1 < s2 < e1)


def compatible_fixes(
    fixes: Iterable[tuple[Diagnostic, Fix]], length: int | None = None
) -> list[tuple[Diagnostic, Fix]]:
    """The fixes that can be applied together, in order of their first edit (then the diagnostics'
    order): one that overlaps an edit already taken, or whose own edits overlap (or fall outside a
    text of `length` characters), is left out. A fix identical to one taken is kept (it changes
    nothing more). An editor's "fix all" can turn these straight into text edits."""
    ordered = sorted(fixes, key=lambda pair: (min(_bounds(e) for e in pair[1].edits), pair[0].sort_key()))
    taken: list[tuple[int, int]] = []
    seen: set[tuple[Edit, ...]] = set()
    out: list[tuple[Diagnostic, Fix]] = []
    for diagnostic, fix in ordered:
        key = tuple(sorted(fix.edits, key=_bounds))
        if key in seen:
            out.append((diagnostic, fix))
            continue
        bounds = [_bounds(e) for e in key]
        if any(s > e or s < 0 or (length is not None and e > length) for s, e in bounds):
            continue
        if any(_clash(a, b) for i, a in enumerate(bounds) for b in bounds[i + 1 :]):
            continue
        if any(_clash(a, b) for a in bounds for b in taken):
            continue
        taken += bounds
        seen.add(key)
        out.append((diagnostic, fix))
    return out


def apply_fixes(text: str, fixes: Iterable[tuple[Diagnostic, Fix]]) -> tuple[str, list[tuple[Diagnostic, Fix]]]:
    """Apply the fixes that fit together (compatible_fixes) to `text`; return the new text and the
    fixes applied. Edit offsets count from after a byte-order mark, which is kept."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    applied = compatible_fixes(fixes, len(body))
    edits = sorted({e for _, fix in applied for e in fix.edits}, key=_bounds)
    pieces, cursor = [], 0
    for edit in edits:
        start, end = _bounds(edit)
        pieces += [body[cursor:start], edit.text]
        cursor = end
    pieces.append(body[cursor:])
    return bom + "".join(pieces), applied


@dataclass
class FixRun:
    """One quest fixed: the text before and after, the fixes applied, and the last check of the new text."""

    path: str
    original: str
    source: str
    result: QuestResult  # the check of `source`
    applied: list[tuple[Diagnostic, Fix]] = field(default_factory=list)
    passes: int = 0
    converged: bool = True  # False: MAX_PASSES ran out with fixes still to apply
    broke: bool = False  # a pass brought syntax errors into a clean parse and was undone

    @property
    def changed(self) -> bool:
        return self.source != self.original

    @property
    def writable(self) -> bool:
        """The new text may replace the file: it changed and it parses without error."""
        return self.changed and not has_syntax_errors(self.result.all_diagnostics)

    def remaining(self, unsafe: bool) -> int:
        """Fixes the last check still offers that this run may not apply (unsafe ones, without `unsafe`)."""
        return sum(1 for d in self.result.diagnostics if d.fixes and not any(allowed(f, unsafe) for f in d.fixes))


def fix_source(
    source: str,
    path: str = "<quest>",
    options=None,
    *,
    unsafe: bool = False,
    max_passes: int = MAX_PASSES,
    result: QuestResult | None = None,
    check: Callable[[str], QuestResult] | None = None,
) -> FixRun:
    """Check `source`, apply its fixes, check again, until nothing is left to fix.

    `check` turns a text into a QuestResult (default: questc.pipeline.check_source with
    `path` and `options`); `result` is the check of `source` if already made. A pass
    that would bring syntax errors into text that parsed is undone and ends the run
    (`broke`): a fix must never make a quest unreadable.
    """
    if check is None:
        from questc.pipeline import check_source

        def check(text: str) -> QuestResult:
            return check_source(text, path, options)

    current = result if result is not None else check(source)
    run = FixRun(path, source, source, current)
    for _ in range(max_passes):
        chosen = chosen_fixes(current.diagnostics, unsafe)
        if not chosen:
            return run
        text, applied = apply_fixes(run.source, chosen)
        if text == run.source:
            return run
        checked = check(text)
        if has_syntax_errors(checked.all_diagnostics) and not has_syntax_errors(current.all_diagnostics):
            run.broke = True
            return run
        run.passes += 1
        run.source, run.result, current = text, checked, checked
        run.applied += applied
    run.converged = not chosen_fixes(current.diagnostics, unsafe)
    return run
