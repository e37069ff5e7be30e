"""questc.records.dataclass behaves as dataclasses.dataclass on every record questc declares."""
from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil

import pytest

from questc.records import dataclass, field


def _records():
    import questc.analysis, questc.board, questc.catalog, questc.checks, questc.diagnostics  # noqa: E401,F401
    import questc.model, questc.syntax  # noqa: E401,F401
    found = []
    for package in ("questc",):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (isinstance(value, type) and value.__module__ == module.__name__
                        and "__dataclass_fields__" in value.__dict__
                        and value.__init__.__module__ == "questc.records"):
                    found.append(value)
    return sorted(set(found), key=lambda c: (c.__module__, c.__qualname__))


RECORDS = _records()


def _twin(cls):
    """The same class made by dataclasses.dataclass."""
    params = cls.__dataclass_params__
    namespace = {"__annotations__": {}, "__qualname__": cls.__qualname__, "__module__": cls.__module__}
    for f in dataclasses.fields(cls):
        namespace["__annotations__"][f.name] = f.type
        namespace[f.name] = dataclasses.field(default=f.default, default_factory=f.default_factory,
                                              init=f.init, repr=f.repr, hash=f.hash, compare=f.compare)
    twin = type(cls.__name__, (), namespace)
    return dataclasses.dataclass(twin, frozen=params.frozen, eq=params.eq,
                                 slots="__slots__" in cls.__dict__)


def _arguments(cls, salt):
    return [f"{salt}{i}" for i, f in enumerate(dataclasses.fields(cls)) if f.init]


def test_questc_declares_records():
    assert len(RECORDS) > 80


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_record_matches_dataclasses(cls):
    twin = _twin(cls)
    assert dataclasses.is_dataclass(cls)
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(twin)]
    assert cls.__match_args__ == twin.__match_args__
    assert ("__slots__" in cls.__dict__) == ("__slots__" in twin.__dict__)
    if "__slots__" in cls.__dict__:
        assert tuple(cls.__slots__) == tuple(twin.__slots__)
    assert (cls.__hash__ is None) == (twin.__hash__ is None)
    a, b = _arguments(cls, "a"), _arguments(cls, "b")
    mine, theirs = cls(*a), twin(*a)
    assert repr(mine) == repr(theirs)
    assert (mine == cls(*a)) == (theirs == twin(*a))
    assert (mine == cls(*b)) == (theirs == twin(*b))
    assert (mine != cls(*b)) == (theirs != twin(*b))
    if cls.__dataclass_params__.eq:
        assert mine.__eq__(theirs) is NotImplemented
    if cls.__dataclass_params__.eq and twin.__hash__ is not None:
        assert hash(mine) == hash(theirs)
    elif not cls.__dataclass_params__.eq:
        assert cls.__hash__ is object.__hash__ and cls.__eq__ is object.__eq__
    keywords = {f.name: value for f, value in zip([f for f in dataclasses.fields(cls) if f.init], b)}
    assert repr(cls(**keywords)) == repr(twin(**keywords))
    assert repr(dataclasses.replace(mine, **keywords)) == repr(dataclasses.replace(theirs, **keywords))
    assert dataclasses.asdict(mine) == dataclasses.asdict(theirs)
    if cls.__dataclass_params__.frozen:
        name = dataclasses.fields(cls)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(mine, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(mine, name)
    assert repr(pickle.loads(pickle.dumps(mine))) == repr(mine)
    assert repr(copy.deepcopy(mine)) == repr(mine)


def test_defaults_factories_and_errors():
    @dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: list = field(default_factory=list, compare=False, hash=False)

    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 0, [])
    assert Point(1).tags is not Point(1).tags
    assert Point(1, tags=[1]) == Point(1)
    assert hash(Point(1, tags=[1])) == hash((1, 0))
    assert not hasattr(p, "__dict__")
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, 2, [], 4)
    with pytest.raises(TypeError):
        Point(1, x=2)
    with pytest.raises(TypeError):
        Point(1, z=2)

    @dataclass
    class Mutable:
        items: dict = field(default_factory=dict)

    m = Mutable()
    m.items = {"a": 1}
    assert m == Mutable({"a": 1}) and Mutable.__hash__ is None
