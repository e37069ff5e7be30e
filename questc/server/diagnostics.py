"""questc diagnostics as LSP diagnostics, and their fixes as code actions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types

from questc.api import Applicability, Diagnostic, Severity
from questc.server.document import Checked, QuestDocument
from questc.server.text import LineIndex, comment_start

SOURCE = "questc"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
# Codes that flag text that does nothing: editors grey it out.
_UNNECESSARY = {"Q601"}


def _uri_of(file: str, document: QuestDocument) -> str:
    if file == document.file:
        return document.uri
    return Path(file).resolve().as_uri() if file and not file.startswith("<") else document.uri


def to_lsp(d: Diagnostic, document: QuestDocument, lines: LineIndex, number: int) -> types.Diagnostic:
    """One diagnostic as `lint` prints it: message, help on its own line, labels as related information."""
    message = d.message
    if d.label and d.label not in message:
        message += f" ({d.label})"
    if d.help:
        message += f"\nhelp: {d.help}"
    related = [
        types.DiagnosticRelatedInformation(
            types.Location(
                _uri_of(label.span.file, document),
                lines.range(label.span) if label.span.file == d.span.file else _plain_range(label.span),
            ),
            label.message,
        )
        for label in d.labels
    ]
    from questc.api import diagnostic_page

    page = diagnostic_page(d.code)
    return types.Diagnostic(
        range=lines.range(d.span),
        message=message,
        severity=_SEVERITY[d.severity],
        code=d.code,
        code_description=types.CodeDescription(href=page) if page else None,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if d.code in _UNNECESSARY else None,
        # Which of the check's diagnostics this is, so a code action finds its fixes again.
        data={"index": number, "fixes": len(d.fixes)},
    )


def _plain_range(span) -> types.Range:
    """A span in another file (a configuration file): its 1-based lines and columns, taken as they are."""
    return types.Range(
        types.Position(max(span.line - 1, 0), max(span.column - 1, 0)),
        types.Position(max(span.end_line - 1, 0), max(span.end_column - 1, 0)),
    )


def published(document: QuestDocument, checked: Checked) -> list[types.Diagnostic]:
    out = [
        to_lsp(d, document, checked.lines, i)
        for i, d in enumerate(checked.result.diagnostics)
        if d.span.file == document.file
    ]
    if checked.config_problem:
        out.insert(
            0,
            types.Diagnostic(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                severity=types.DiagnosticSeverity.Warning,
                source=SOURCE,
                message=f"the configuration cannot be used, checked with the defaults: {checked.config_problem}",
            ),
        )
    return out


def _edits(fix, lines: LineIndex) -> list[types.TextEdit]:
    return [types.TextEdit(lines.range(edit.span), edit.text) for edit in fix.edits]


def code_actions(
    document: QuestDocument, request_range: types.Range, only: Sequence[str] | None
) -> list[types.CodeAction]:
    """For every diagnostic on the lines of the range (the whole line, not only its span): a quick fix
    for each machine-applicable fix, and "suppress on this line"; and one `source.fixAll` action that
    applies every safe fix and every typo fix that do not overlap another."""
    checked = document.checked
    if checked is None or checked.text is not document.text:
        return []  # fixes of an older text would land in the wrong place
    lines = checked.lines
    diagnostics = checked.result.diagnostics
    wanted = lambda kind: not only or any(kind == o or kind.startswith(o + ".") for o in only)  # noqa: E731
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix):
        first, last = request_range.start.line, request_range.end.line
        suppressions: list[types.CodeAction] = []
        for number, d in enumerate(diagnostics):
            if d.span.file != document.file:
                continue
            where = lines.range(d.span)
            if where.end.line < first or where.start.line > last:
                continue
            lsp = to_lsp(d, document, lines, number)
            for fix in d.fixes:
                safe = fix.applicability is Applicability.SAFE
                actions.append(
                    types.CodeAction(
                        title=f"{fix.message} ({d.code})" + ("" if safe else " [unsafe]"),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[lsp],
                        is_preferred=safe and len(d.fixes) == 1,
                        edit=types.WorkspaceEdit(changes={document.uri: _edits(fix, lines)}),
                    )
                )
            suppress = _suppress(d, document, lines, lsp)
            if suppress is not None and suppress.title not in {a.title for a in suppressions}:
                suppressions.append(suppress)
        actions += suppressions
    fix_all = "source.fixAll.questc"
    if wanted(fix_all):
        edits = safe_edits(diagnostics, document.file, len(checked.text) - checked.lines.bom, typos=True)
        if edits:
            actions.append(
                types.CodeAction(
                    title="Apply every safe questc fix and typo fix",
                    kind=fix_all,
                    edit=types.WorkspaceEdit(
                        changes={document.uri: [types.TextEdit(lines.range(e.span), e.text) for e in edits]}
                    ),
                )
            )
    return actions


# Codes whose one fix writes the known name nearest a misspelt one: a catalog name (Q101) or the
# quest's own identifier (Q103). Unsafe one by one (a guess), taken by "fix all" when the writer asks.
TYPO_CODES = frozenset({"Q101", "Q103"})
_IGNORE = re.compile(r"#\s*questc\s*:\s*ignore\s*\[(?P<codes>[^\]]*)\]")


def _suppress(
    d: Diagnostic, document: QuestDocument, lines: LineIndex, lsp: types.Diagnostic
) -> types.CodeAction | None:
    """`# questc: ignore[CODE]` at the end of the diagnostic's line (joined to one already there), for
    a code that can be suppressed (errors of syntax and reference cannot)."""
    from questc.api import descriptor

    entry = descriptor(d.code)
    if entry is None or entry.minimum is Severity.ERROR or d.code.startswith("Q6"):
        return None  # errors of syntax and reference cannot be suppressed; a suppression's own codes need not
    line = lines.range(d.span).start.line
    text = lines.line_text(line)
    start = lines.starts[line]
    comment = comment_start(text)
    if comment is not None:
        found = _IGNORE.match(text, comment)
        if found is not None:
            codes = [c.strip() for c in found.group("codes").split(",") if c.strip()]
            if d.code in codes:
                return None
            at = start + found.end("codes")
            edit = types.TextEdit(types.Range(lines.position(at), lines.position(at)), (", " if codes else "") + d.code)
        else:  # the writer's own comment stays, after the suppression: `# questc: ignore[Q211] why`
            at = start + comment
            rest = text[comment + 1 :].lstrip()
            edit = types.TextEdit(
                types.Range(lines.position(at), lines.position(start + len(text))),
                f"# questc: ignore[{d.code}] {rest}".rstrip(),
            )
    else:
        at = start + len(text)
        edit = types.TextEdit(types.Range(lines.position(at), lines.position(at)), f"  # questc: ignore[{d.code}]")
    return types.CodeAction(
        title=f"Suppress {d.code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp],
        edit=types.WorkspaceEdit(changes={document.uri: [edit]}),
    )


def safe_edits(diagnostics: list[Diagnostic], file: str, length: int | None = None, typos: bool = False) -> list:
    """The edits of every safe fix (and with `typos`, every typo's one fix) that can go with the
    others (questc.fixes.compatible_fixes, as `questc lint --fix` picks them), in order."""
    from questc.api import compatible_fixes

    pairs = [
        (d, fix)
        for d in diagnostics
        if d.span.file == file
        for fix in d.fixes
        if fix.applicability is Applicability.SAFE or (typos and d.code in TYPO_CODES and len(d.fixes) == 1)
    ]
    edits = {edit for _, fix in compatible_fixes(pairs, length) for edit in fix.edits}
    return sorted(edits, key=lambda e: (e.span.start, e.span.end))
