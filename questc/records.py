"""Frozen records: standard dataclasses whose fields the type checker keeps read-only.

`@record` (or `@record(slots=True)`) is `dataclasses.dataclass` with value equality and a
hash of the fields, as a frozen dataclass has; the type checker (mypy, through PEP 681's
`dataclass_transform`) treats the class as frozen and reports any assignment to a field.
At run time the class is not frozen: a frozen dataclass costs about 1.4 million more
instructions to create than this one (its `__setattr__`, `__delattr__` and a longer
`__init__` are generated and compiled for each class), and questc creates about a hundred
records on every start (docs/performance.md, "Start-up": 15 % of a `questc lint`'s
instructions). Code that must not change a record is typed code, which mypy checks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TypeVar, overload

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**kwargs: Any) -> Callable[[T], T]:   # only the type checker reads it
        return lambda decorated: decorated

__all__ = ["record"]


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, /, *, slots: bool = False) -> Any:
    """A dataclass with `slots` as asked, fields compared and hashed, frozen for the type checker."""
    def make(decorated: type[T]) -> type[T]:
        return dataclass(decorated, slots=slots, unsafe_hash=True)
    return make if cls is None else make(cls)
