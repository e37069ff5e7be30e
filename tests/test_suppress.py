"""Inline suppressions: `# questc: ignore[...]` before (or after) a statement, `ignore-file[...]`, and
the reports about the suppressions themselves (Q601 unused, Q602 unknown, Q603 unsuppressible, Q604 malformed)."""

from __future__ import annotations

import textwrap

from questc.api import check_source
from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.options import Options
from questc.suppress import apply_suppressions
from questc.syntax import parse_source

# Area B is in line of sight of the start area: the reveal checks report Q305 at `B` (line 10 here).
OPEN_PLAN = textwrap.dedent("""\
    quest "Open Plan" {
      conquest 3
    }
    piece R1 room_4x4 at 0,0
    piece C1 corridor_2x2 at 4,1
    piece E1 dead_end at 6,1
    area A "Hall" start { pieces R1; glyph at 0,0 active }
    # questc: ignore[Q305]
    # the alcove is meant to be seen from the hall
    area B "Alcove" { pieces C1, E1 }
    victory heroes when revealed B
""")


def codes(source: str, options=None) -> list[str]:
    return [d.code for d in check_source(source, "q.quest", options or Options()).diagnostics]


def at(code: str, line: int, severity=Severity.WARNING) -> Diagnostic:
    return Diagnostic(code, severity, "m", Span("q.quest", line, 1, line, 2))


def run(source: str, diagnostics, complete=True) -> list[tuple[str, int]]:
    parsed = parse_source(source, "q.quest")
    kept = apply_suppressions(diagnostics, source, parsed.comments, "q.quest", complete=complete)
    return sorted((d.code, d.span.line) for d in kept)


# ---- through the whole pipeline -------------------------------------------------------------


def test_the_pipeline_reports_q305_without_the_comment():
    assert codes(OPEN_PLAN.replace("# questc: ignore[Q305]\n", "")) == ["Q305"]


def test_suppression_before_the_statement_skipping_comment_lines():
    assert codes(OPEN_PLAN) == []


def test_unused_suppression_is_reported_at_the_comment():
    source = OPEN_PLAN.replace("# questc: ignore[Q305]\n", "").replace(
        "victory heroes", "# questc: ignore[Q305]\nvictory heroes"
    )
    result = check_source(source, "q.quest")
    assert [d.code for d in result.diagnostics] == ["Q305", "Q601"]
    q601 = result.diagnostics[1]
    assert q601.severity is Severity.WARNING and q601.span.line == 10 and q601.span.column == 1
    assert q601.span.end_column == len("# questc: ignore[Q305]") + 1


def test_file_wide_suppression_anywhere():
    source = OPEN_PLAN.replace("# questc: ignore[Q305]\n", "") + "# questc: ignore-file[Q305, Q306]\n"
    result = check_source(source, "q.quest")
    # Q305 is suppressed; Q306 is not reported in this quest, so that part is unused
    assert [d.code for d in result.diagnostics] == ["Q601"]
    assert "`Q306`" in result.diagnostics[0].message


def test_the_policy_applies_after_suppressions():
    # ignoring Q305 in the configuration does not make the suppression unused
    assert codes(OPEN_PLAN, Options(ignore=("Q305",))) == []
    # and Q601 itself can be ignored
    unused = OPEN_PLAN.replace("area B", "area B").replace("[Q305]", "[Q305, Q503]")
    assert codes(unused) == ["Q601"] and codes(unused, Options(ignore=("Q601",))) == []


def test_syntax_and_reference_errors_cannot_be_suppressed():
    source = OPEN_PLAN.replace("glyph at 0,0 active", "glyph at 0,0 active; monster beastmen at 2,2").replace(
        "area A", "# questc: ignore[Q101]\narea A"
    )
    result = check_source(source, "q.quest")
    assert sorted(d.code for d in result.diagnostics) == ["Q101", "Q603"]
    # a file with errors judges no suppression unused: later checks did not run
    assert "Q601" not in [d.code for d in result.diagnostics]


# ---- the rules, on given diagnostics ----------------------------------------------------------


def test_trailing_suppression_covers_its_own_line():
    source = 'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0  # questc: ignore[Q202] capped later\n'
    assert run(source, [at("Q202", 4)]) == []


def test_suppression_covers_only_its_line_and_codes():
    source = (
        'quest "Q" {\n  conquest 3\n}\n# questc: ignore[Q202]\n\npiece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n'
    )
    assert run(source, [at("Q202", 6), at("Q202", 7), at("Q201", 6)]) == [("Q201", 6), ("Q202", 7)]


def test_several_codes_and_partly_unused():
    source = 'quest "Q" {\n  conquest 3\n}\n# questc: ignore[Q202, q201]\npiece R1 room_4x4 at 0,0\n'
    assert run(source, [at("Q202", 5)]) == [("Q601", 4)]
    assert run(source, [at("Q202", 5), at("Q201", 5)]) == []
    # unused is judged only when every check ran
    assert run(source, [at("Q202", 5)], complete=False) == []


def test_problems_with_the_comment_itself():
    source = (
        'quest "Q" {\n  conquest 3\n}\n'
        "# questc: ignore[Q3O5, Q999]\n"  # not a code; a code that does not exist
        "# questc: ignore Q305\n"  # malformed
        "# questc: ignore[]\n"  # nothing named
        "#questc:ignore-file[Q001]\n"  # always an error
        "piece R1 room_4x4 at 0,0\n"
    )
    result = run(source, [at("Q001", 8, Severity.ERROR)])
    assert result == [("Q001", 8), ("Q602", 4), ("Q602", 4), ("Q603", 7), ("Q604", 5), ("Q604", 6)]
    parsed = parse_source(source, "q.quest")
    unknown = [d for d in apply_suppressions([], source, parsed.comments, "q.quest") if d.code == "Q602"]
    assert [(d.span.column, d.span.end_column) for d in unknown] == [(18, 22), (24, 28)]
    assert "is not a diagnostic code" in unknown[0].message and "is not a code questc reports" in unknown[1].message


def test_ordinary_comments_and_other_files_are_left_alone():
    source = 'quest "Q" {\n  conquest 3\n}\n# ignore[Q202] is how questc suppressions look\npiece R1 room_4x4 at 0,0\n'
    assert run(source, [at("Q202", 5)]) == [("Q202", 5)]
    elsewhere = Diagnostic("Q202", Severity.WARNING, "m", Span("pack.yaml", 5, 1, 5, 2))
    source = source.replace("# ignore", "# questc: ignore-file")
    parsed = parse_source(source, "q.quest")
    kept = apply_suppressions([elsewhere], source, parsed.comments, "q.quest")
    assert [d.code for d in kept] == ["Q202", "Q601"]


def test_byte_order_mark_does_not_shift_the_lines():
    source = '\ufeffquest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0  # questc: ignore[Q202]\n'
    parsed = parse_source(source, "q.quest")
    assert apply_suppressions([at("Q202", 4)], source, parsed.comments, "q.quest") == []
