"""The layering the architecture promises, checked on the source: data flows one way.

Every package (and top-level module) of questc is in ALLOWED with the questc packages it
may import, at run time or only for types; an import outside its row fails, a package
missing from the table fails, and an import cycle anywhere (between modules, within a
package or across packages) fails with the cycle. docs/architecture.md draws the same
table. Within questc.board the modules form a chain (geometry, parts, layout, sight,
bulk, movement, board, build).
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "questc"

# Leaves every stage may use: records of diagnostics, errors, limits, data folders, words, file reading,
# the frozen-record decorator.
BASE = frozenset({"diagnostics", "errors", "files", "limits", "paths", "records", "words"})

# Each package and what it may import (names below `questc.`; "questc" is the package itself,
# its version). Read top-down as the pipeline: a row names only rows above it.
ALLOWED: dict[str, frozenset[str]] = {
    # foundations: import nothing of questc
    "questc": frozenset(),
    "diagnostics": frozenset({"records"}),
    "errors": frozenset(),
    "files": frozenset(),
    "limits": frozenset(),
    "paths": frozenset(),
    "records": frozenset(),
    "words": frozenset(),
    "project": frozenset(),
    "fonts": frozenset(),
    # the rule sets (questc.editions): data every stage asks, importing nothing of questc
    "editions": frozenset({"records"}),
    # the stages, in order
    "syntax": BASE | {"editions"},
    "catalog": BASE | {"editions"},
    "model": BASE | {"editions", "syntax", "catalog"},
    "board": BASE | {"syntax", "model", "editions"},
    "analysis": BASE | {"syntax", "model", "board", "editions"},
    "compiled": BASE | {"syntax", "catalog", "model", "board", "analysis", "editions"},
    "rules": BASE | {"fonts", "syntax", "catalog", "model", "editions", "board", "analysis", "compiled"},
    # the settings of a run: the codes (rules) and the box owned (catalog.owned's records)
    "options": BASE | {"catalog", "rules"},
    "suppress": BASE | {"rules"},
    "pipeline": BASE | {"syntax", "model", "board", "compiled", "rules", "options", "suppress"},
    "fixes": BASE | {"pipeline", "options"},
    # the encounters of a quest checked together, over the reports of their files
    "quest_sets": BASE | {"model", "rules", "options", "pipeline"},
    "fmt": BASE | {"syntax", "editions"},  # editions: the starter quests' rules
    "discovery": BASE | {"options"},
    # the engine JSON's reader for engines: the board alone
    "loader": BASE | {"editions", "board"},
    # Valkyrie's quest format and its content's names and geometry (read by the export and the import)
    "valkyrie": BASE | {"catalog"},
    # what is made of a compiled quest
    "draw": BASE | {"fonts", "catalog", "model", "editions", "compiled"},
    "emit": BASE
    | {
        "questc",
        "project",
        "fonts",
        "syntax",
        "catalog",
        "model",
        "editions",
        "board",
        "analysis",
        "compiled",
        "rules",
        "draw",
        "valkyrie",
    },
    # quests made with other tools in, questc's language out (questc.fmt writes its strings)
    "importer": BASE | {"catalog", "fmt", "valkyrie"},
    "config": BASE | {"questc", "catalog", "options", "rules", "emit"},
    "build": BASE | {"options", "discovery", "pipeline", "compiled", "editions", "emit"},
    # the library: everything above it
    "api": BASE
    | {
        "syntax",
        "catalog",
        "model",
        "editions",
        "board",
        "analysis",
        "compiled",
        "rules",
        "options",
        "suppress",
        "pipeline",
        "fixes",
        "fmt",
        "discovery",
        "project",
        "config",
        "build",
        "importer",
        "quest_sets",
    },
    # the front ends: questc.api and what they render with
    "cli": frozenset({"questc", "api", "emit", "preview", "server"}),
    # the language server serves the preview (its page, fed with the editor's checks)
    "server": frozenset({"questc", "api", "preview"}),
    "preview": frozenset({"api", "draw"}),
    "__main__": frozenset({"cli"}),
}
FRONT_ENDS = ("cli", "server", "preview")


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(module: str) -> set[str]:
    """Every questc module `module` imports, at run time or for types only (absolute names).

    `from questc.draw import symbols` imports the module questc.draw.symbols, not the
    package's __init__ (which Python runs first for any of its modules anyway)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "questc"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                root = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{root}.{base}" if base else root
            if base.split(".")[0] != "questc":
                continue
            submodules = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES}
            found |= submodules if len(submodules) == len(node.names) else submodules | {base}
    return found - {module}


def unit(module: str) -> str:
    """The row of ALLOWED a module belongs to."""
    parts = module.split(".")
    return "questc" if len(parts) == 1 else parts[1]


def test_every_package_has_a_row():
    missing = sorted({unit(m) for m in MODULES} - set(ALLOWED))
    assert not missing, f"add these to ALLOWED (and docs/architecture.md): {missing}"


def forbidden_imports() -> list[str]:
    """Each import outside its package's row of ALLOWED, said in words."""
    offenders = []
    for module in sorted(MODULES):
        row = unit(module)
        for imported in sorted(imports_of(module)):
            target = unit(imported)
            if target != row and target not in ALLOWED.get(row, ()):
                offenders.append(f"{module} imports {imported} ({row} may not import {target})")
    return offenders


def import_cycle() -> list[str] | None:
    """A cycle of modules importing each other, if there is one."""
    try:
        list(TopologicalSorter({m: imports_of(m) for m in MODULES}).static_order())
    except CycleError as error:
        return list(error.args[1])
    return None


@pytest.mark.slow
def test_every_import_is_allowed():
    assert not forbidden_imports(), "\n".join(forbidden_imports())


def test_the_table_itself_has_no_cycle():
    try:
        list(TopologicalSorter({row: set(allowed) - {row} for row, allowed in ALLOWED.items()}).static_order())
    except CycleError as error:
        pytest.fail(f"ALLOWED lets these packages import each other: {error.args[1]}")


@pytest.mark.slow
def test_no_import_cycle_between_any_modules():
    cycle = import_cycle()
    assert cycle is None, f"an import cycle: {' -> '.join(cycle or ())}"


@pytest.mark.slow
def test_nothing_below_the_front_ends_imports_them():
    offenders = [
        f"{m} imports {i}"
        for m in MODULES
        if unit(m) not in FRONT_ENDS + ("__main__",)
        for i in imports_of(m)
        if unit(i) in FRONT_ENDS
    ]
    assert not offenders, offenders


def test_the_board_modules_form_a_chain():
    graph = {
        m.rsplit(".", 1)[1]: {i.rsplit(".", 1)[1] for i in imports_of(m) if i.startswith("questc.board.")}
        for m in MODULES
        if m.startswith("questc.board.")
    }
    order = list(TopologicalSorter(graph).static_order())
    assert (
        order.index("layout")
        < order.index("sight")
        < order.index("movement")
        < order.index("board")
        < order.index("build")
    )


@pytest.mark.slow
def test_a_cycle_or_a_forbidden_import_is_caught(tmp_path, monkeypatch):
    """The checks can fail: a syntax module importing the rules (an arrow up the table) and a
    pair of modules importing each other (a cycle within one package, allowed by the table)."""
    (tmp_path / "upwards.py").write_text("from questc.rules import Rule\n", encoding="utf-8")
    (tmp_path / "ping.py").write_text("from questc.syntax.pong import x\n", encoding="utf-8")
    (tmp_path / "pong.py").write_text("import questc.syntax.ping\n", encoding="utf-8")
    for name in ("upwards", "ping", "pong"):
        monkeypatch.setitem(MODULES, f"questc.syntax.{name}", tmp_path / f"{name}.py")
    assert forbidden_imports() == ["questc.syntax.upwards imports questc.rules (syntax may not import rules)"]
    assert sorted(set(import_cycle() or ())) == ["questc.syntax.ping", "questc.syntax.pong"]
