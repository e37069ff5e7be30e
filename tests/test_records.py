"""questc.records: a record compares, hashes and prints as the frozen dataclass it stands for.

Every record class questc makes on a check is held to a twin made by `dataclasses` itself
(eq=True, unsafe_hash=True, the same fields with their compare, hash and repr flags), on the
records of real quests: the shipped quests' syntax trees, models, catalogs and diagnostics.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from pathlib import Path

import pytest

from questc.api import check_file
from questc.records import _repr, record

REPO = Path(__file__).resolve().parent.parent


def _is_record(cls: type) -> bool:
    return "_record_key" in vars(cls)


def _gather(root: object) -> dict[type, list[object]]:
    """The records reachable from `root` through dataclass fields, tuples, lists and mappings, by class."""
    found: dict[type, list[object]] = defaultdict(list)
    seen: set[int] = set()
    stack = [root]
    while stack:
        value = stack.pop()
        if id(value) in seen or isinstance(value, (str, bytes, int, float, type(None))):
            continue
        seen.add(id(value))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if _is_record(type(value)):
                found[type(value)].append(value)
            stack.extend(getattr(value, f.name) for f in dataclasses.fields(value))
        elif isinstance(value, (tuple, list, set, frozenset)):
            stack.extend(value)
        elif hasattr(value, "items") and hasattr(value, "keys"):
            for key, item in value.items():
                stack.extend((key, item))
    return found


def _twin(cls: type) -> type:
    """The dataclass `cls` stands for, made by dataclasses."""
    twin = dataclasses.make_dataclass(
        cls.__name__,
        [
            (f.name, object, dataclasses.field(compare=f.compare, hash=f.hash, repr=f.repr))
            for f in dataclasses.fields(cls)
        ],
        eq=True,
        unsafe_hash=True,
    )
    twin.__qualname__ = cls.__qualname__
    return twin


def _as_twin(value: object, twin: type) -> object:
    return twin(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def records() -> dict[type, list[object]]:
    found: dict[type, list[object]] = defaultdict(list)
    for path in sorted((REPO / "quests").glob("*.quest")):
        result = check_file(path)
        assert result.compiled is not None
        for root in (result.compiled.tree, result.compiled.model, result.all_diagnostics):
            for cls, values in _gather(root).items():
                found[cls].extend(values)
    return found


@pytest.mark.slow
def test_records_of_real_quests_behave_as_their_dataclass(records):
    assert len(records) > 40  # syntax nodes, catalog entries, model parts, spans, diagnostics...
    with_equals = 0
    for cls, values in records.items():
        twin = _twin(cls)
        # Equal values from different quests and the same quest, and unequal ones.
        head = values[:300]  # count() over every value made this quadratic (half a minute)
        repeated = [v for v in head if head.count(v) > 1][:10]
        with_equals += bool(repeated)
        sample = values[:40] + repeated
        for a, b in itertools.product(sample[:25], repeat=2):
            assert (a == b) == (_as_twin(a, twin) == _as_twin(b, twin)), cls
            assert (a != b) == (_as_twin(a, twin) != _as_twin(b, twin)), cls
            if a == b:
                assert hash(a) == hash(b), cls
        for value in sample:
            if cls.__repr__ is _repr:  # not a class's own (Edition's)
                assert repr(value) == repr(_as_twin(value, twin)), cls
            assert value != object() and not (value == object())
    assert with_equals > 10  # equal values from different places were compared


def test_fields_left_out_of_compare_hash_and_repr_stay_out():
    @record(slots=True)
    class Counted:
        name: str
        seen: list = dataclasses.field(default_factory=list, compare=False)
        weight: float = dataclasses.field(default=0.0, hash=False)
        secret: str = dataclasses.field(default="", repr=False)

    a, b = Counted("a", [1], 2.0, "x"), Counted("a", [2], 2.0, "x")
    assert a == b and hash(a) == hash(b) and repr(a).endswith(".Counted(name='a', seen=[1], weight=2.0)")
    assert a != Counted("a", [1], 3.0, "x") and hash(a) == hash(Counted("a", [1], 3.0, "x"))
    assert a != Counted("a", [1], 2.0, "y")
    assert {a: 1}[b] == 1


def test_a_record_keeps_the_methods_it_writes_and_identity_records_are_their_own():
    @record
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    @record(eq=False)
    class Handle:
        name: str

    assert repr(Named("x")) == "<x>" and Named("x") == Named("x")
    one = Handle("x")
    assert one == one and one != Handle("x") and len({one, Handle("x")}) == 2
    assert repr(one).endswith("Handle(name='x')")

    @record
    class Empty:
        pass

    assert Empty() == Empty() and hash(Empty()) == hash(Empty()) and repr(Empty()).endswith("Empty()")


def test_a_record_holding_itself_prints():
    @record
    class Box:
        items: list

    box = Box([])
    box.items.append(box)
    assert repr(box).endswith("Box(items=[...])")
