"""CONTRIBUTING.md as a tested document: its walk-throughs are followed, step by step, in a copy of
the repository, and the development install it asks for is the one the tests run.

The copy (the repository's files as they are in the working tree, without .git and the virtual
environment) stands for a contributor's checkout with an editable install: its folder comes first on
PYTHONPATH, and `questc` and `python` run it, with a cache folder of its own. In each walk-through
section (WALKS), in order:

- "New file `PATH`:", then a fenced block: the file, written;
- "In `PATH`, after the line `LINE`:" (or "before the line", or "the line starting `TEXT`"), then a
  fenced block: the block put beside the first line that reads LINE (indentation aside);
- "In `PATH`, replace `OLD` with `NEW`.": OLD, found once, becomes NEW;
- "In `PATH`, add to the list at `/json/pointer`:", then a ```json block: the value appended there
  (the file is written back as the repository writes its JSON: two spaces, a newline at the end);
- "It writes `PATH`:", then a fenced block: the file must read so;
- a ```sh block: each command is run (bash, at the top of the copy) and must succeed;
- a ```console block: each `$ ` line is run and what it prints, standard output and standard error
  together, must be the lines below it.

Any other fenced block in a walk-through fails the test (a step the test would not follow). An
instruction whose anchor is gone (the code moved on) fails, naming the line of CONTRIBUTING.md.

QUESTC_UPDATE_SNAPSHOTS=1 writes what the commands print, and the files they write, back into
CONTRIBUTING.md; review its diff.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO
from helpers import console_sessions

CONTRIBUTING = REPO / "CONTRIBUTING.md"
UPDATE = os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1"
# The walk-throughs, by the start of their `## ` heading.
WALKS = ("Adding a rule", "Adding a statement", "Adding an edition")
# Not copied: what a checkout does not hold, or what the copy must make itself.
LEFT_OUT = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "build",
    "dist",
    "out",
}

_CODE = r"(?:``\s?(.+?)\s?``|`([^`]+)`)"  # `code`, or ``code with a ` in it``
_LEAD = r"^(?:\*\*[^*]+\*\* |.*\. )?"  # an instruction may follow a bold lead-in or a sentence on its line
_INSTRUCTIONS = {
    "new": re.compile(_LEAD + r"New file `(?P<path>[^`]+)`:$"),
    "insert": re.compile(
        _LEAD + rf"In `(?P<path>[^`]+)`, (?P<where>after|before) the line (?P<starting>starting )?"
        rf"{_CODE}:$"
    ),
    "replace": re.compile(_LEAD + rf"In `(?P<path>[^`]+)`, replace {_CODE} with {_CODE}\.$"),
    "json": re.compile(_LEAD + r"In `(?P<path>[^`]+)`, add to the list at `(?P<pointer>/[^`]*)`:$"),
    "expect": re.compile(_LEAD + r"It writes `(?P<path>[^`]+)`:$"),
}


@dataclass
class Step:
    kind: str  # new, insert, replace, json, expect, sh, console
    line: int  # where it is in CONTRIBUTING.md (1-based), for messages
    path: str = ""
    where: str = ""  # insert: after or before
    anchor: str = ""  # insert: the line; replace: the text replaced
    starting: bool = False  # insert: the anchor is how the line starts
    new: str = ""  # replace: its replacement
    text: str = ""  # the block's text, ending with a newline
    block: tuple[int, int] = (0, 0)  # the block's body, as a slice of the page's lines


def _code(match: re.Match, first: int) -> str:
    return match.group(first) if match.group(first) is not None else match.group(first + 1)


def walk_steps(lines: list[str], heading: str) -> list[Step]:
    """The steps of the `## ` section starting with `heading`, in order."""
    starts = [i for i, line in enumerate(lines) if line.startswith("## " + heading)]
    assert len(starts) == 1, f"CONTRIBUTING.md has no one section `## {heading}...`"
    end = next((i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    steps: list[Step] = []
    waiting: Step | None = None  # an instruction whose block comes next
    i = starts[0] + 1
    while i < end:
        line = lines[i]
        fence = re.match(r"^(`{3,})([a-z]*)\s*$", line)  # (four backticks hold a block of three)
        if fence:
            j = i + 1
            while lines[j] != fence.group(1):
                j += 1
            text = "".join(x + "\n" for x in lines[i + 1 : j])
            if waiting is not None:
                waiting.text, waiting.block = text, (i + 1, j)
                steps.append(waiting)
                waiting = None
            elif fence.group(2) in ("sh", "console"):
                steps.append(Step(fence.group(2), i + 1, text=text, block=(i + 1, j)))
            else:
                raise AssertionError(
                    f"CONTRIBUTING.md line {i + 1}: a ```{fence.group(2)} block with no "
                    "instruction before it (New file, In PATH..., It writes...)"
                )
            i = j + 1
            continue
        if re.search(r"\bIn `[^`]+`,|\bNew file\b|\bIt writes `", line) and not any(
            pattern.match(line) for pattern in _INSTRUCTIONS.values()
        ):
            raise AssertionError(
                f"CONTRIBUTING.md line {i + 1} reads like an instruction but is not one (an "
                f"instruction is a line of its own, ending in `:` before its block): {line}"
            )
        for kind, pattern in _INSTRUCTIONS.items():
            match = pattern.match(line)
            if match is None:
                continue
            assert waiting is None, f"CONTRIBUTING.md line {waiting.line}: an instruction without its block"
            step = Step(kind, i + 1, path=match.group("path"))
            if kind == "insert":
                step.where, step.anchor = match.group("where"), _code(match, 4)
                step.starting = match.group("starting") is not None
            elif kind == "replace":
                step.anchor, step.new = _code(match, 2), _code(match, 4)
                steps.append(step)
                break
            elif kind == "json":
                step.anchor = match.group("pointer")
            waiting = step
            break
        i += 1
    assert waiting is None, f"CONTRIBUTING.md line {waiting.line}: an instruction without its block"
    return steps


class Checkout:
    """A copy of the repository with the environment of an editable install of it."""

    def __init__(self, folder: Path):
        self.root = folder / "questc"
        shutil.copytree(REPO, self.root, ignore=lambda _dir, names: [n for n in names if n in LEFT_OUT])
        bin_ = folder / "bin"
        bin_.mkdir()
        for name, run in (
            ("python", f'exec "{sys.executable}" "$@"'),
            ("questc", f'exec "{sys.executable}" -m questc "$@"'),
        ):
            (bin_ / name).write_text(f"#!/bin/sh\n{run}\n", encoding="utf-8")
            (bin_ / name).chmod(0o755)
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("CI", "QUESTC_UPDATE_SNAPSHOTS", "VIRTUAL_ENV", "PYTHONPATH", "FORCE_COLOR")
        }
        self.env.update(
            PYTHONPATH=str(self.root),
            PATH=f"{bin_}{os.pathsep}{os.environ['PATH']}",
            XDG_CACHE_HOME=str(folder / "cache"),
            NO_COLOR="1",
            COLUMNS="80",
        )

    def run(self, command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", "-c", command],
            cwd=self.root,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=600,
        )


def _console(step: Step) -> list[tuple[str, str, int, int]]:
    return console_sessions(step.text, step.block[0] + 1, "CONTRIBUTING.md")


def _pointer(document, pointer: str):
    for part in pointer.strip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


def follow(checkout: Checkout, steps: list[Step]) -> tuple[list[str], dict[tuple[int, int], str]]:
    """Do the steps in the checkout; (the problems, and the blocks' bodies as they really are)."""
    problems: list[str] = []
    actual: dict[tuple[int, int], str] = {}
    for step in steps:
        where = f"CONTRIBUTING.md line {step.line}"
        target = checkout.root / step.path
        if step.kind == "new":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        elif step.kind == "insert":
            lines = target.read_text(encoding="utf-8").split("\n")
            found = [
                k
                for k, line in enumerate(lines)
                if line.strip() == step.anchor.strip() or step.starting and line.strip().startswith(step.anchor.strip())
            ]
            if not found:
                problems.append(
                    f"{where}: {step.path} has no line {'starting ' if step.starting else ''}"
                    f"`{step.anchor}`: say where the block goes now"
                )
                continue
            at = found[0] + (1 if step.where == "after" else 0)
            lines[at:at] = step.text.rstrip("\n").split("\n")
            target.write_text("\n".join(lines), encoding="utf-8")
        elif step.kind == "replace":
            text = target.read_text(encoding="utf-8")
            if text.count(step.anchor) != 1:
                problems.append(f"{where}: `{step.anchor}` is in {step.path} {text.count(step.anchor)} times, not once")
                continue
            target.write_text(text.replace(step.anchor, step.new), encoding="utf-8")
        elif step.kind == "json":
            document = json.loads(target.read_text(encoding="utf-8"))
            _pointer(document, step.anchor).append(json.loads(step.text))
            target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        elif step.kind == "expect":
            written = target.read_text(encoding="utf-8") if target.exists() else "(no such file)\n"
            actual[step.block] = written
            if written != step.text:
                problems.append(f"{where}: {step.path} reads\n{written}but the page shows\n{step.text}")
        elif step.kind == "sh":
            for number, command in enumerate(step.text.split("\n"), start=step.block[0] + 1):
                if command.strip() and not command.lstrip().startswith("#"):
                    done = checkout.run(command)
                    if done.returncode != 0:
                        problems.append(
                            f"CONTRIBUTING.md line {number}: `{command}` failed "
                            f"(exit {done.returncode}):\n{done.stdout[-3000:]}"
                        )
        elif step.kind == "console":
            shown = []
            for command, expected, _first, _end in _console(step):
                printed = checkout.run(command).stdout
                shown.append(f"$ {command}\n{printed}")
                if printed != expected:
                    problems.append(f"{where}: `{command}` printed\n{printed}but the page shows\n{expected}")
            actual[step.block] = "".join(shown)
    return problems, actual


def _update(lines: list[str], actual: dict[tuple[int, int], str]) -> None:
    for (first, end), text in sorted(actual.items(), reverse=True):
        lines[first:end] = text.rstrip("\n").split("\n") if text else []
    CONTRIBUTING.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("heading", WALKS)
def test_the_walk_through_does_what_it_says(heading, tmp_path):
    lines = CONTRIBUTING.read_text(encoding="utf-8").split("\n")
    steps = walk_steps(lines, heading)
    (tmp_path / "first").mkdir()
    problems, actual = follow(Checkout(tmp_path / "first"), steps)
    shown = {step.block: step.text for step in steps}
    if UPDATE and any(actual[block] != shown[block] for block in actual):
        _update(lines, actual)  # then follow the page again: what is left is not a matter of output
        (tmp_path / "again").mkdir()
        lines = CONTRIBUTING.read_text(encoding="utf-8").split("\n")
        problems, _ = follow(Checkout(tmp_path / "again"), walk_steps(lines, heading))
    assert problems == [], "\n\n".join(problems)


def test_each_walk_through_ends_in_the_tests_and_a_command_a_user_runs():
    """The walk-throughs are whole: each writes or edits files, runs the tests of what it added, and
    shows questc doing the new thing."""
    lines = CONTRIBUTING.read_text(encoding="utf-8").split("\n")
    for heading in WALKS:
        steps = walk_steps(lines, heading)
        kinds = {step.kind for step in steps}
        assert {"new", "sh", "console"} <= kinds, (heading, kinds)
        commands = "".join(step.text for step in steps if step.kind in ("sh", "console"))
        assert "python -m pytest" in commands and "questc " in commands, heading


def test_the_follower_reports_a_moved_anchor_and_a_wrong_output(tmp_path):
    """The follower itself: an anchor that is gone, a replacement found twice, a failing command and
    a console block showing the wrong output are each a problem."""
    page = [
        "## Adding a rule",
        "",
        "In `pyproject.toml`, after the line `[no such table]`:",
        "",
        "```toml",
        "x = 1",
        "```",
        "",
        "In `pyproject.toml`, replace `questc` with `questd`.",
        "",
        "```sh",
        "false",
        "```",
        "",
        "```console",
        "$ echo hello",
        "goodbye",
        "```",
        "",
    ]
    problems, actual = follow(Checkout(tmp_path), walk_steps(page, "Adding a rule"))
    assert len(problems) == 4, problems
    assert "has no line `[no such table]`" in problems[0] and "times, not once" in problems[1]
    assert "`false` failed" in problems[2] and "printed\nhello\nbut the page shows\ngoodbye" in problems[3]
    assert list(actual.values()) == ["$ echo hello\nhello\n"]


def test_the_development_install_is_this_working_tree(tmp_path):
    """`pip install -e ".[test]"` (CONTRIBUTING.md, the README): the `questc` command runs the code being
    edited. With a plain `pip install .` it runs a copy made at install time, so a new code passes the
    tests (which import the working tree) while `questc explain` says there is no such code."""
    done = subprocess.run(
        [sys.executable, "-c", "import questc; print(questc.__file__)"],
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        check=True,
    )
    imported = Path(done.stdout.strip()).resolve()
    assert REPO in imported.parents, (
        f"questc is imported from {imported}, not from this working tree: the `questc` command runs that copy. "
        f'Install it editable: pip install -e ".[test]"'
    )
