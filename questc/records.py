"""Frozen records: standard dataclasses whose fields the type checker keeps read-only.

`@record` (or `@record(slots=True)`) is `dataclasses.dataclass` with value equality, a hash
of the fields and the dataclass repr, as a frozen dataclass has; the type checker (mypy,
through PEP 681's `dataclass_transform`) treats the class as frozen and reports any
assignment to a field. Code that must not change a record is typed code, which mypy checks.

What it saves is start-up (docs/performance.md, "Start-up"): questc makes about 130 records
on every `questc lint`, and a dataclass compiles the source of each method it generates for
each class (CPython 3.11 to 3.13 alike), which was a third of a small quest's lint:
- the class is not frozen at run time (a frozen dataclass also compiles a `__setattr__`, a
  `__delattr__` and a longer `__init__`: about 1.4 million instructions a class);
- `dataclass` makes the fields, `__init__`, the slots and `__match_args__`, while equality,
  the hash and the repr are three functions shared by every record, reading the fields
  `dataclasses.fields` lists (those with `compare`, `hash` and `repr` set, as the generated
  methods would): compiling them per class was 45 % of the classes' cost.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**kwargs: Any) -> Callable[[T], T]:  # only the type checker reads it
        return lambda decorated: decorated


__all__ = ["record"]


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, slots: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, /, *, slots: bool = False, eq: bool = True) -> Any:
    """A dataclass with `slots` as asked, fields compared and hashed (`eq=False`: a record equal only
    to itself, hashed by identity), frozen for the type checker."""

    def make(decorated: type[T]) -> type[T]:
        own = decorated.__dict__
        made = dataclass(decorated, slots=slots, eq=False, repr=False)
        listed = fields(made)  # type: ignore[arg-type]  # made is a dataclass: dataclass() just made it one
        compared = [f.name for f in listed if f.compare]
        made._record_key = _getter(compared)  # type: ignore[attr-defined]  # a class attribute, not a field
        made._record_hash = _getter([f.name for f in listed if (f.compare if f.hash is None else f.hash)])  # type: ignore[attr-defined]
        made._record_repr = tuple(f.name for f in listed if f.repr)  # type: ignore[attr-defined]
        # Like the dataclass's own: a method the class writes itself is kept.
        for name, method in (("__eq__", _eq), ("__hash__", _hash), ("__repr__", _repr)):
            if name not in own and (eq or name == "__repr__"):
                setattr(made, name, method)
        return made

    return make if cls is None else make(cls)


def _getter(names: list[str]) -> Any:
    """The values of these fields of a record, as one value to compare or hash (kept on the class:
    an attrgetter is no method, and a record without such fields gets a static function)."""
    if not names:
        return staticmethod(lambda record: ())
    return attrgetter(*names)


# What dataclass(eq=True, unsafe_hash=True) would generate for each class, written once.
def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self._record_key
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self._record_hash(self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_repr)
    return f"{self.__class__.__qualname__}({values})"
