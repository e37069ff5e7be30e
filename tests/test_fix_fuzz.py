"""Fuzz: the fixes of mutated quests. Every fix's edits agree with the text (offsets, lines and
columns), and applying every fix, unsafe ones too, never breaks a quest that parsed."""

from __future__ import annotations

import pytest
from helpers import span_text
from test_fuzz import mutants

from questc.api import check_source
from questc.fixes import fix_source, has_syntax_errors

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("seed", [7, 8])
def test_fixes_of_mutated_quests(seed):
    offered = 0
    # 150: the corpus grew (quests/ember_reliquary_*), and 100 of its mutants drew too few fixes.
    for label, source in mutants(150, seed=seed):
        result = check_source(source, "q.quest")
        body = source.removeprefix("\ufeff")
        for d in result.all_diagnostics:
            for fix in d.fixes:
                offered += 1
                assert fix.edits and fix.message, (label, d)
                for edit in fix.edits:
                    assert span_text(body, edit.span) is not None, (label, d.code, edit)
        run = fix_source(source, "q.quest", unsafe=True, result=result, max_passes=3)
        assert not run.broke, (label, [f.message for _, f in run.applied])
        if not has_syntax_errors(result.all_diagnostics):
            assert not has_syntax_errors(run.result.all_diagnostics), label
    assert offered >= 10  # the mutants do exercise the fixes
