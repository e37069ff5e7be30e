"""Q6xx: configuration and inline suppressions (`# questc: ignore[...]`, questc.toml)."""
from questc.diagnostics.core import Descriptor, Example, Severity

W = Severity.WARNING

_QUEST = '''quest "Q" {
  conquest 3
}
piece R1 room_4x4 at 0,0
piece C1 corridor_2x2 at 4,1
piece E1 dead_end at 6,1
area A "Hall" start { pieces R1; glyph at 0,0 active }
'''
_TAIL = 'area B "Alcove" { pieces C1, E1 }\nvictory heroes when revealed B\n'

Q601 = Descriptor(
    code="Q601", name="unused-suppression", severity=W,
    template="this suppression of {codes} suppresses nothing",
    label_template="unused",
    help_template="remove {what}",
    summary="An inline `# questc: ignore[...]` or `ignore-file[...]` comment that suppresses no diagnostic.",
    explanation="""
A suppression comment says "this diagnostic is expected here". When the problem is
fixed, or the comment stands before the wrong line, it suppresses nothing, and later
it would hide a new, unrelated problem of that code. `# questc: ignore[CODE]` covers
the next line that holds a statement (comment lines between are skipped) or, as a
trailing comment, its own line; `# questc: ignore-file[CODE]` covers the whole file.
A suppression is only judged unused when every check ran (a file with syntax or name
errors reports none of these).
""",
    example=Example(
        failing=_QUEST + 'area B "Alcove" { pieces C1, E1 }\n# questc: ignore[Q305]\nvictory heroes when revealed B\n',
        fixed=_QUEST + _TAIL),
    fields=("codes", "what"),
)

Q602 = Descriptor(
    code="Q602", name="unknown-code", severity=W,
    template="`{code}` {problem}",
    label_template="unknown code",
    help_template="{help_text}",
    summary="A suppression comment or the configuration names a diagnostic code that does not exist.",
    explanation="""
Codes are written `Q` and three digits (`Q305`); in the configuration's `select`,
`ignore`, `severity` and `per-file-ignores` a prefix (`Q3`, `Q30`) stands for every
code it starts. A name that is not a code, or a code no check reports, is most often
a typo, and it suppresses or configures nothing. `questc explain all` lists the codes.
""",
    example=Example(
        failing=_QUEST + "# questc: ignore[Q3O5]\n" + _TAIL,
        fixed=_QUEST + "# questc: ignore[Q305]\n" + _TAIL),
    fields=("code", "problem", "help_text"),
)

Q603 = Descriptor(
    code="Q603", name="unsuppressible-code", severity=W,
    template="`{code}` is always an error and cannot be suppressed",
    label_template="cannot be suppressed",
    help_template="fix the {kind} error instead; remove `{code}` from this comment",
    summary="A suppression comment names a syntax or reference code (Q0xx, Q1xx), which stays an error.",
    explanation="""
A quest with a syntax error or a broken name cannot be compiled, whatever a comment
says, so these codes can be neither suppressed inline nor lowered or switched off by
the configuration. The comment is reported so that nobody believes the problem is
handled.
""",
    example=Example(
        failing=_QUEST.replace("area A", "# questc: ignore[Q101]\narea A").replace(
            "active }", "active; monster beastmen at 2,2 }") + _TAIL,
        fixed=_QUEST.replace("active }", "active; monster beastman at 2,2 }") + _TAIL),
    fields=("code", "kind"),
)

Q604 = Descriptor(
    code="Q604", name="malformed-suppression", severity=W,
    template="this `questc:` comment is not a suppression questc understands",
    label_template="not understood",
    help_template="write `# questc: ignore[Q305]` or `# questc: ignore-file[Q305, Q306]`",
    summary="A comment that starts `# questc:` but is not `ignore[CODES]` or `ignore-file[CODES]`.",
    explanation="""
Comments starting with `questc:` are instructions to questc. Only two exist:
`ignore[CODES]` before a statement and `ignore-file[CODES]` anywhere, each with a
comma-separated list of codes in square brackets. A misspelt instruction would
otherwise be silently ignored, and the diagnostic it was meant to cover would still
be printed without an explanation why.
""",
    example=Example(
        failing=_QUEST + "# questc: ignore Q305\n" + _TAIL,
        fixed=_QUEST + "# questc: ignore[Q305]\n" + _TAIL),
)
