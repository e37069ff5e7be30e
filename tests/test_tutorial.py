"""docs/tutorial.md as a tested document: the tutorial is followed step by step, in a fresh folder.

The page's blocks are read in order:

- a ```quest block after `<!-- file: PATH -->` is the whole of PATH at that point: it is
  written there, and linted. Unless a ```console block of the same section runs
  `questc lint` on it, it must lint clean (`0 errors, 0 warnings in 1 file`);
- a ```quest block after `<!-- excerpt: PATH -->` must appear, verbatim, in PATH as the
  next `file:` listing of its section leaves it (or as the section ends);
- a ```console block is a terminal: each `$ questc ...` line is run (through the real
  command line, in that folder) and what it prints, standard output and standard error
  as a terminal shows them, must be the lines below it;
- a ```toml block must be a configuration questc accepts.

Run with QUESTC_UPDATE_SNAPSHOTS=1 to write what questc prints into the console blocks
after an intended change, then review the diff of docs/tutorial.md.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import console_sessions

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO / "docs" / "tutorial.md"
UPDATE = os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1"


@dataclass
class Block:
    kind: str  # the fence's language: quest, console, toml, ...
    text: str  # what is between the fences, ending with a newline
    start: int  # the line (0-based) of the opening fence
    end: int  # the line of the closing fence
    marker: tuple[str, str] | None  # ("file" | "excerpt", path) from the comment just above
    section: str


def read_blocks(lines: list[str]) -> list[Block]:
    blocks, section, i = [], "", 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:]
        fence = re.match(r"^```([a-z]*)\s*$", line)
        if fence:
            j = i + 1
            while lines[j] != "```":
                j += 1
            above = lines[i - 1] if i else ""
            marker = re.match(r"^<!-- (file|excerpt): (\S+) -->$", above)
            blocks.append(
                Block(
                    fence.group(1),
                    "".join(x + "\n" for x in lines[i + 1 : j]),
                    i,
                    j,
                    marker.groups() if marker else None,
                    section,
                )
            )
            i = j
        i += 1
    return blocks


def _run(command: str) -> str:
    from questc.cli import cli

    words = shlex.split(command)
    assert words[0] == "questc", f"the tutorial runs only questc, not {command!r}"
    env = {"NO_COLOR": None, "FORCE_COLOR": None, "TERM": None, "COLUMNS": "80"}
    done = CliRunner().invoke(cli, words[1:], env=env, catch_exceptions=False)
    return done.output


def _sessions(block: Block) -> list[tuple[str, str, int, int]]:
    return console_sessions(block.text, block.start + 2, "docs/tutorial.md")


def follow(workdir: Path, lines: list[str]) -> tuple[list[str], list[str]]:
    """Follow the tutorial in `workdir`; (problems found, the page's lines with the real outputs)."""
    from questc.config import load_options

    blocks = read_blocks(lines)
    problems: list[str] = []
    replacements: dict[tuple[int, int], list[str]] = {}
    pending: list[Block] = []  # excerpts waiting for their section's next listing
    listed: Block | None = None  # the last listing whose lint output is not yet shown

    def check_excerpts(before_section: str | None = None):
        for excerpt in list(pending):
            if before_section is not None and excerpt.section == before_section:
                continue
            path = workdir / excerpt.marker[1]
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            if excerpt.text not in text:
                problems.append(
                    f"line {excerpt.start + 1}: this excerpt is not in {excerpt.marker[1]}:\n{excerpt.text}"
                )
            pending.remove(excerpt)

    def close_listing():
        nonlocal listed
        if listed is not None:
            shown = _run(f"questc lint {listed.marker[1]}")
            if shown != "0 errors, 0 warnings in 1 file\n":
                problems.append(
                    f"line {listed.start + 1} ({listed.section}): the listing is not clean, but the "
                    f"page shows no `questc lint` for it; questc says:\n{shown}"
                )
            listed = None

    section = None
    for block in blocks:
        if block.section != section:
            close_listing()
            check_excerpts()
            section = block.section
        if block.kind == "quest" and block.marker and block.marker[0] == "file":
            close_listing()
            target = workdir / block.marker[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
            check_excerpts()
            listed = block
        elif block.marker and block.marker[0] == "excerpt":
            pending.append(block)
        elif block.kind == "console":
            for command, expected, first, end in _sessions(block):
                actual = _run(command)
                if (
                    listed is not None
                    and shlex.split(command)[:2] == ["questc", "lint"]
                    and listed.marker[1] in command
                ):
                    listed = None  # its output is shown here
                if actual != expected:
                    problems.append(
                        f"line {first} ({block.section}): `{command}` printed\n{actual}but the page shows\n{expected}"
                    )
                replacements[(first, end)] = actual.rstrip("\n").split("\n") if actual else []
        elif block.kind == "toml":
            config = workdir / "tutorial-config" / "questc.toml"
            config.parent.mkdir(exist_ok=True)
            config.write_text(block.text.replace("[tool.questc]\n", ""), encoding="utf-8")
            try:
                load_options(config_file=str(config))
            except Exception as error:  # noqa: BLE001 - the page must show only configurations questc takes
                problems.append(f"line {block.start + 1}: questc refuses this configuration: {error}")
    close_listing()
    check_excerpts()
    updated = list(lines)
    for (first, end), new in sorted(replacements.items(), reverse=True):
        updated[first:end] = new
    return problems, updated


@pytest.mark.slow
def test_the_tutorial_does_what_it_says(tmp_path, monkeypatch):
    """Followed in a copy of the README's folder (the repository's top: its quests, the finished
    tutorial quest among them, and its configuration), where a reader is after the Quick start."""
    import shutil

    shutil.copytree(REPO / "quests", tmp_path / "quests")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    monkeypatch.chdir(tmp_path)
    lines = TUTORIAL.read_text(encoding="utf-8").split("\n")
    problems, updated = follow(tmp_path, lines)
    if UPDATE and updated != lines:
        TUTORIAL.write_text("\n".join(updated), encoding="utf-8")
        again = tmp_path / "again"
        again.mkdir()
        monkeypatch.chdir(again)
        problems, _ = follow(again, updated)  # what is left is not a matter of printed output
    assert problems == [], "\n\n".join(problems)


def test_the_tutorial_is_followed_all_the_way():
    """The page has the steps the test follows: every kind of block, and the finished quest last."""
    blocks = read_blocks(TUTORIAL.read_text(encoding="utf-8").split("\n"))
    listings = [b for b in blocks if b.marker and b.marker[0] == "file"]
    assert len(listings) >= 6
    assert listings[-1].text == (REPO / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8")
    commands = [command for b in blocks if b.kind == "console" for command, *_ in _sessions(b)]
    for needed in (
        "questc new",
        "questc lint",
        "questc lint --verbose",
        "questc reveal",
        "questc los",
        "questc fmt",
        "questc build",
    ):
        assert any(c.startswith(needed) for c in commands), needed
    sections = [b.section for b in listings]
    # each numbered step from 2 to 6 leaves a whole file behind
    for step in range(2, 7):
        assert any(s.startswith(f"{step}.") for s in sections), step


def test_the_follower_catches_a_wrong_line_number(tmp_path, monkeypatch):
    """The check itself: a page showing a wrong line, a listing that is not clean without saying
    so, or a stale excerpt is reported."""
    monkeypatch.chdir(tmp_path)
    page = [
        "## 1. One",
        "",
        "<!-- file: q.quest -->",
        "```quest",
        'quest "Q" {',
        "  conquest 5",
        "}",
        "",
        "piece R1 room_4x4 at 0,0",
        "",
        'area A "Hall" start {',
        "  pieces R1",
        "  monster gobbo at 2,2",
        "  glyph at 0,0 active",
        "}",
        "",
        "victory heroes when revealed A",
        "```",
        "",
        "```console",
        "$ questc lint q.quest",
        "error[Q101]: unknown monster `gobbo`",
        "  --> q.quest:12:11",
        "```",
        "",
        "<!-- excerpt: q.quest -->",
        "```quest",
        "  monster goblin at 2,2",
        "```",
        "",
        "## 2. Two",
        "",
        "<!-- file: q.quest -->",
        "```quest",
        'quest "Q" {',
        "  conquest 5",
        "}",
        "```",
        "",
    ]
    problems, updated = follow(tmp_path, page)
    assert len(problems) == 3, problems
    assert "`questc lint q.quest` printed" in problems[0] and " --> q.quest:9:11" in problems[0]
    assert "this excerpt is not in q.quest" in problems[1]
    assert "the listing is not clean" in problems[2] and "error[Q501]" in problems[2]  # no victory
    assert " --> q.quest:9:11" in updated  # the update mode writes the real output
