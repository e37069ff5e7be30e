"""Every code's failing example as a writer reads it, held to tests/snapshots/rules/QNNN.txt.

For each rule of the family tables, each of its failing examples (one per edition it applies to,
Rule.all_examples) is checked as tests/test_rules.py checks it, and the diagnostics of that code
are rendered as `questc lint` prints them: the message, the source lines with their labels, the
help; after each, its fixes, each as the diff `questc lint --diff` shows for it alone. A change of
wording, span, label, help or fix fails here while the code still fires.

After an intended change, or for a new code (a code without a snapshot fails, saying so):

    QUESTC_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_rule_snapshots.py -k Q215

then read the file it wrote (it is what writers will see) and commit it with the change.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from conftest import TESTS
from rule_examples import FILE, Run, example_edition, failing_run

from questc.api import apply_fixes
from questc.emit.text import TextRenderer
from questc.rules import all_rules

SNAPSHOTS = TESTS / "snapshots" / "rules"
UPDATE = os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1"


def _command(code: str) -> str:
    return f"QUESTC_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_rule_snapshots.py -k {code}"


def render_run(code: str, run: Run) -> str:
    """The diagnostics of `code` in an example's run, as text, with each fix's diff; the folder the
    example was checked in is left out of every path. (An example of several files, a quest's
    encounters, shows each diagnostic in the file it points into.)"""
    texts = {str(run.folder / name): text for name, text in run.files}
    renderer = TextRenderer(texts)
    parts = []
    for d in (d for d in run.diagnostics if d.code == code):
        parts.append(renderer.render(d))
        name = Path(d.span.file).name if d.span.file in texts else FILE
        source = texts.get(d.span.file, run.source)
        for fix in d.fixes:
            fixed, applied = apply_fixes(source, [(d, fix)])
            diff = "".join(
                difflib.unified_diff(
                    source.splitlines(keepends=True),
                    fixed.splitlines(keepends=True),
                    fromfile=f"a/{name}",
                    tofile=f"b/{name}",
                )
            )
            state = "" if applied else " (its edits do not apply together: nothing changes)"
            parts.append(f"fix ({fix.applicability.value}): {fix.message}{state}\n{diff}".rstrip("\n"))
    text = "\n\n".join(parts)
    return text.replace(str(run.folder) + os.sep, "").replace(str(run.folder), ".")


def rendered(code: str) -> str:
    """The snapshot of a code: a section per failing example, in Rule.all_examples order."""
    rule = all_rules()[code]
    out = [
        f"# {code} {rule.name}: its failing examples as `questc lint` shows them.\n"
        f"# Made by tests/test_rule_snapshots.py; after a change: {_command(code)}\n"
    ]
    for index, example in enumerate(rule.all_examples):
        out.append(
            f"== the failing example, {example_edition(example.failing)} edition ==\n\n"
            + render_run(code, failing_run(code, index))
            + "\n"
        )
    return "\n".join(out)


@pytest.mark.parametrize("code", list(all_rules()))
def test_failing_example_renders_as_its_snapshot(code):
    text = rendered(code)
    assert "\x1b[" not in text and "Traceback" not in text
    snapshot = SNAPSHOTS / f"{code}.txt"
    if UPDATE:
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(text, encoding="utf-8")
    if not snapshot.exists():
        pytest.fail(
            f"{code} has no snapshot: make tests/snapshots/rules/{code}.txt with\n    {_command(code)}\n"
            "then read it (it is what writers will see) and commit it",
            pytrace=False,
        )
    held = snapshot.read_text(encoding="utf-8")
    if text != held:
        diff = "".join(
            difflib.unified_diff(
                held.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=f"tests/snapshots/rules/{code}.txt (held)",
                tofile=f"{code} rendered now",
            )
        )
        pytest.fail(
            f"{code}'s failing example renders differently from its snapshot:\n{diff}\n"
            f"If the change is meant: {_command(code)}, then review and commit the file.",
            pytrace=False,
        )


def test_every_snapshot_is_of_a_code():
    stale = sorted(p.stem for p in SNAPSHOTS.glob("*.txt") if p.stem not in all_rules())
    assert not stale, f"snapshots of codes no family lists: {stale}; delete tests/snapshots/rules/<code>.txt"
