"""The layering the architecture promises, checked on the source: data flows one way.

Within questc.board the modules form a chain without cycles (geometry, parts, layout,
sight, bulk, movement, board, build); nothing below the command line imports it.
"""
from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "questc"
# The thin layers over questc.api: nothing else may import them.
FRONT_ENDS = ("questc.cli", "questc.server", "questc.preview")
ENTRY_POINTS = ("questc.__main__",)   # `python -m questc` runs the command line


def imports_of(path: Path) -> set[str]:
    """Every questc module a file imports, at run time or not (absolute names)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("questc")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
                if node.module is None:
                    found |= {f"{base}.{a.name}" for a in node.names}
            else:
                name = node.module or ""
            if name.startswith("questc"):
                found.add(name)
    return found


def test_the_board_modules_import_each_other_without_a_cycle():
    graph = {}
    for path in (PACKAGE / "board").glob("*.py"):
        if path.name != "__init__.py":
            graph[path.stem] = {m.rsplit(".", 1)[1] for m in imports_of(path)
                                if m.startswith("questc.board.") and m.count(".") == 2} - {"__init__"}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        pytest.fail(f"questc.board has an import cycle: {error.args[1]}")
    assert order.index("layout") < order.index("sight") < order.index("movement") < order.index("board") \
        < order.index("build")


def test_nothing_below_the_front_ends_imports_them():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if module.startswith(FRONT_ENDS) or module in ENTRY_POINTS:
            continue
        bad = sorted(m for m in imports_of(path) if m.startswith(FRONT_ENDS))
        if bad:
            offenders.append(f"{module} imports {', '.join(bad)}")
    assert not offenders, offenders
