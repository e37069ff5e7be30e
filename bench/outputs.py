"""The outputs campaign: every command that writes, aimed at every hostile target, through the
real command line, each run in a fresh scratch project; the figures docs/performance.md quotes.

    python bench/outputs.py              # every command against every target (a few minutes)
    python bench/outputs.py --quick      # one command of each kind (the smoke test)

The commands: `lint -o`, `lint --format sarif -o`, `preview --export`, `guide -o`,
`build -o` (the target as its folder), `import valkyrie -o`, `new -o` (the target as its
folder). (`fmt` and `lint --fix` rewrite the quests they read; tests/test_outputs.py
holds them to a file that cannot be written.) The targets:
each of the run's inputs (the quest, the pack it uses, the configuration) named directly,
through a symbolic link, a hard link and a path with `..`; an existing folder; a path
through a file; a folder that does not exist yet; a name too long for the file system;
a dangling link; a link loop; a named pipe nobody reads; a device node (as root). (A full
disk and a read-only mount are simulated in tests/test_outputs.py: root writes anyway.)

Each run must end with exit status 0 or 1 and a message, never `internal error`, a
traceback, exit 2 or a hang (60 s); afterwards every file the command read (and, for
`new`, every file) is byte for byte as it was, no device or pipe has become a file, and
no temporary file of questc's is left. The run fails (exit 1) on any breach.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT = 60


def _project(folder: Path) -> None:
    """A scratch project: a quest using a pack, another quest, a configuration, a Valkyrie quest."""
    (folder / "packs").mkdir()
    shutil.copy(ROOT / "quests" / "bells_of_lowmere.quest", folder / "bells.quest")
    shutil.copy(ROOT / "quests" / "packs" / "lowmere.yaml", folder / "packs" / "lowmere.yaml")
    shutil.copy(ROOT / "quests" / "chandlers_cellar.quest", folder / "cellar.quest")
    (folder / "questc.toml").write_text("[owned]\nsets = { base = 2 }\n", encoding="utf-8")
    shutil.copytree(ROOT / "tests" / "fixtures" / "valkyrie" / "quests" / "01_FirstBlood", folder / "valk")


def _fingerprint(folder: Path) -> dict[str, tuple[str, str]]:
    """Every entry below `folder` (links not followed): its kind and, for files, a hash."""
    out = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        if stat.S_ISREG(mode):
            out[str(path.relative_to(folder))] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
        else:
            out[str(path.relative_to(folder))] = (stat.filemode(mode)[0], "")
    return out


def _targets(folder: Path) -> dict[str, str]:
    """name -> the path given as the output (relative to the project), made ready in `folder`."""
    targets = {
        "the quest": "bells.quest",
        "the pack": "packs/lowmere.yaml",
        "the configuration": "questc.toml",
        "the quest through ..": "packs/../bells.quest",
        "a new folder": "new/deeper/out.txt",
        "an existing folder": "packs",
        "a path through a file": "cellar.quest/out.txt",
        "a name too long": "x" * 300 + ".txt",
        "a dangling link": "dangling",
        "a link loop": "loop",
        "a named pipe nobody reads": "pipe",
        "the quest by a symbolic link": "link-to-quest",
        "the pack by a hard link": "hard-pack",
        "a Valkyrie file read": "valk/quest.ini",
    }
    os.symlink("nowhere/at/all", folder / "dangling")
    os.symlink("loop", folder / "loop")
    os.mkfifo(folder / "pipe")
    os.symlink("bells.quest", folder / "link-to-quest")
    os.link(folder / "packs" / "lowmere.yaml", folder / "hard-pack")
    try:
        os.mknod(folder / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        targets["a device node"] = "null"
    except (PermissionError, OSError, AttributeError):
        pass
    return targets


# command -> (its arguments for a target, the files it reads: what must never change). `new`
# reads nothing but must never overwrite a file, so everything there is kept.
QUEST_INPUTS = ("bells.quest", "packs/lowmere.yaml", "questc.toml")
COMMANDS = {
    "lint -o": (lambda t: ["lint", "-o", t, "bells.quest"], QUEST_INPUTS),
    "lint --format sarif -o": (
        lambda t: ["lint", "--format", "sarif", "-o", t, "bells.quest", "cellar.quest"],
        (*QUEST_INPUTS, "cellar.quest"),
    ),
    "preview --export": (lambda t: ["preview", "--export", t, "bells.quest"], QUEST_INPUTS),
    "guide -o": (lambda t: ["guide", "-o", t, "bells.quest"], QUEST_INPUTS),
    "build -o (folder)": (lambda t: ["build", "--only", "json", "-o", t, "bells.quest"], QUEST_INPUTS),
    "import valkyrie -o": (lambda t: ["import", "valkyrie", "valk", "-o", t], ("valk/",)),
    "new -o (folder)": (lambda t: ["new", "fresh", "-o", t], ("",)),
}
QUICK = ("lint -o", "build -o (folder)", "new -o (folder)")


def run_one(command: str, target_name: str) -> tuple[list[str], int, float]:
    """One command against one target in a fresh project: (breaches, exit status, seconds)."""
    with tempfile.TemporaryDirectory(prefix="questc-outputs-") as scratch:
        folder = Path(scratch)
        _project(folder)
        target = _targets(folder)[target_name]
        before = _fingerprint(folder)
        make_args, inputs = COMMANDS[command]
        args = make_args(target)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "questc", *args],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return [f"hung past {TIMEOUT} s"], -1, TIMEOUT
        seconds = time.monotonic() - started
        problems = []
        text = done.stdout + done.stderr
        if done.returncode not in (0, 1):
            problems.append(f"exit {done.returncode}: {done.stderr.strip()[-300:]}")
        if "internal error" in text or "Traceback" in text:
            problems.append(f"internal error: {text.strip()[-300:]}")
        after = _fingerprint(folder)
        # Hard links and symbolic links to an input are that input too.
        links = {"hard-pack": "packs/lowmere.yaml", "link-to-quest": "bells.quest"}
        kept = [name for name in before if name.startswith(inputs) or links.get(name, "\0").startswith(inputs)]
        for name in kept:
            kind, digest = before[name]
            if name not in after:
                problems.append(f"{name} is gone")
            elif after[name] != (kind, digest):
                problems.append(f"{name} changed ({kind} -> {after[name][0]})")
        for name in ("pipe", "null"):  # a device or a pipe never becomes a file
            if name in before and after.get(name, ("", ""))[0] != before[name][0]:
                problems.append(f"{name} was a {before[name][0]}, now {after.get(name, ('gone',))[0]}")
        stray = [name for name in after if ".questc-" in name]
        if stray:
            problems.append(f"temporary files left: {stray[:3]}")
        return problems, done.returncode, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only " + ", ".join(QUICK))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "probe").mkdir()
        _project(Path(scratch, "probe"))
        names = list(_targets(Path(scratch, "probe")))
    commands = QUICK if args.quick else tuple(COMMANDS)
    runs = breaches = 0
    statuses: dict[int, int] = {}
    slowest = (0.0, "")
    for command in commands:
        for name in names:
            problems, status, seconds = run_one(command, name)
            runs += 1
            statuses[status] = statuses.get(status, 0) + 1
            slowest = max(slowest, (seconds, f"{command} onto {name}"))
            for problem in problems:
                breaches += 1
                print(f"BREACH  {command} onto {name}: {problem}")
    print(f"runs                  {runs} ({len(commands)} commands x {len(names)} targets)")
    print("exit statuses         " + ", ".join(f"{code}: {count}" for code, count in sorted(statuses.items())))
    print(f"breaches              {breaches} (internal errors, exit 2, hangs, inputs changed, files left)")
    print(f"slowest               {slowest[0]:.1f} s ({slowest[1]})")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
