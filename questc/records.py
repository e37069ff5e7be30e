"""`dataclass` without code generation: class in, the same class with shared methods out.

`dataclasses.dataclass` compiles an `__init__`, `__repr__`, `__eq__`, `__hash__` and
(frozen) `__setattr__`/`__delattr__` for every class, about half a millisecond each:
questc declares over a hundred records on the lint path, which was a fifth of a
`questc lint` cold start. This decorator gives the same classes the same behaviour
from closures shared by all: the same constructor signature (positional or keyword,
defaults, `field(default_factory=...)`), the same repr, equality (same class, fields
compared as a tuple), hash (the hash of the same tuple), immutability
(`dataclasses.FrozenInstanceError`), `__slots__`, `__match_args__` and pickling. The
classes are real dataclasses to the standard library: `__dataclass_fields__` holds
`dataclasses.Field`s, so `dataclasses.fields`, `replace`, `is_dataclass` and `asdict`
work on them.

Supported: the options questc uses (`frozen`, `slots`, `eq`); no `order`, `kw_only`,
`InitVar`, `__post_init__` or dataclass inheritance (each refused with a TypeError).
`tests/test_records.py` checks every questc record against `dataclasses.dataclass`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import attrgetter
from reprlib import recursive_repr

__all__ = ["dataclass", "field"]

_setattr = object.__setattr__


def dataclass(cls=None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
              init: bool = True, repr: bool = True):
    """Make `cls` a dataclass; the options mean what they mean for `dataclasses.dataclass`."""
    def wrap(cls):
        return _process(cls, frozen=frozen, slots=slots, eq=eq, init=init, repr=repr)
    return wrap if cls is None else wrap(cls)


def _is_classvar(annotation) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar"))


def _process(cls, *, frozen, slots, eq, init, repr):
    for base in cls.__mro__[1:]:
        if hasattr(base, "__dataclass_fields__"):
            raise TypeError(f"{cls.__name__}: questc.records does not support dataclass inheritance")
    namespace = cls.__dict__
    if "__post_init__" in namespace:
        raise TypeError(f"{cls.__name__}: questc.records does not support __post_init__")
    annotations = namespace.get("__annotations__", {})
    fields: dict[str, Field] = {}
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            raise TypeError(f"{cls.__name__}.{name}: questc.records does not support ClassVar/InitVar")
        default = namespace.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            f = field(default=default)
        f.name = name
        f.type = annotation
        f._field_type = dataclasses._FIELD
        fields[name] = f
        # As dataclasses does: a class attribute keeps a plain default, a Field leaves none.
        if isinstance(default, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)

    names = tuple(fields)
    cls.__dataclass_fields__ = fields
    try:
        cls.__dataclass_params__ = dataclasses._DataclassParams(init, repr, eq, False, False, frozen)
    except TypeError:   # other Pythons take more parameters; nothing in questc reads them
        pass
    cls.__match_args__ = tuple(name for name, f in fields.items() if f.init)

    if init and "__init__" not in namespace:
        cls.__init__ = _make_init(cls.__qualname__, fields, frozen)
    if repr and "__repr__" not in namespace:
        cls.__repr__ = _make_repr(tuple(name for name, f in fields.items() if f.repr))
    if eq and "__eq__" not in namespace:
        cls.__eq__ = _make_eq(tuple(name for name, f in fields.items() if f.compare))
    explicit_hash = "__hash__" in namespace and namespace["__hash__"] is not None
    if not explicit_hash:
        if eq and frozen:
            hashed = tuple(name for name, f in fields.items()
                           if (f.compare if f.hash is None else f.hash))
            cls.__hash__ = _make_hash(hashed)
        elif eq:
            cls.__hash__ = None
    if frozen:
        if "__setattr__" in namespace or "__delattr__" in namespace:
            raise TypeError(f"Cannot overwrite attribute __setattr__ in class {cls.__name__}")
        cls.__setattr__ = _frozen_setattr(cls, names)
        cls.__delattr__ = _frozen_delattr(cls, names)
    if cls.__doc__ is None:   # dataclasses' default docstring: the signature
        cls.__doc__ = cls.__name__ + "(" + ", ".join(
            f"{name}: {f.type!r}" + ("" if f.default is MISSING and f.default_factory is MISSING
                                     else f" = {f.default!r}" if f.default is not MISSING
                                     else " = <factory>")
            for name, f in fields.items() if f.init) + ")"
    if slots:
        cls = _add_slots(cls, names, frozen)
    return cls


def _make_init(qualname, fields, frozen):
    names = tuple(name for name, f in fields.items() if f.init)
    count = len(names)
    defaults = {name: f.default for name, f in fields.items() if f.init and f.default is not MISSING}
    factories = {name: f.default_factory for name, f in fields.items()
                 if f.default_factory is not MISSING}
    # Fields outside __init__ still get their default or factory, as dataclasses does.
    uninit = tuple((name, f.default, f.default_factory) for name, f in fields.items() if not f.init)
    setter = _setattr if frozen else setattr

    def __init__(self, *args, **kwargs):
        given = len(args)
        if given > count:
            raise TypeError(f"{qualname}.__init__() takes {count + 1} positional arguments "
                            f"but {given + 1} were given")
        for name, value in zip(names, args):
            setter(self, name, value)
        if given < count or kwargs:
            for name in names[:given]:
                if name in kwargs:
                    raise TypeError(f"{qualname}.__init__() got multiple values for argument {name!r}")
            for name in names[given:]:
                if name in kwargs:
                    value = kwargs.pop(name)
                elif name in defaults:
                    value = defaults[name]
                elif name in factories:
                    value = factories[name]()
                else:
                    raise TypeError(f"{qualname}.__init__() missing 1 required positional "
                                    f"argument: {name!r}")
                setter(self, name, value)
            if kwargs:
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument "
                                f"{next(iter(kwargs))!r}")
        for name, default, factory in uninit:
            if factory is not MISSING:
                setter(self, name, factory())
            elif default is not MISSING:
                setter(self, name, default)
    return __init__


def _make_repr(names):
    @recursive_repr()
    def __repr__(self):
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({inner})"
    return __repr__


def _tuple_getter(names):
    if len(names) == 1:
        name = names[0]
        return lambda self: (getattr(self, name),)
    if not names:
        return lambda self: ()
    return attrgetter(*names)


def _make_eq(names):
    values = _tuple_getter(names)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return __eq__


def _make_hash(names):
    values = _tuple_getter(names)

    def __hash__(self):
        return hash(values(self))
    return __hash__


def _frozen_setattr(cls, names):
    fields = frozenset(names)

    def __setattr__(self, name, value):
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)
    return __setattr__


def _frozen_delattr(cls, names):
    fields = frozenset(names)

    def __delattr__(self, name):
        if type(self) is cls or name in fields:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __delattr__


def _add_slots(cls, names, frozen):
    """A new class with `__slots__` (a class's slots are fixed when it is made), as dataclasses does."""
    namespace = dict(cls.__dict__)
    if "__slots__" in namespace:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    namespace["__slots__"] = names
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    qualname = getattr(cls, "__qualname__", None)
    new = type(cls)(cls.__name__, cls.__bases__, namespace)
    if qualname is not None:
        new.__qualname__ = qualname
    if frozen:
        # The shared __setattr__/__delattr__ compare against the class they were made for.
        new.__setattr__ = _frozen_setattr(new, names)
        new.__delattr__ = _frozen_delattr(new, names)
        if "__getstate__" not in namespace:
            new.__getstate__ = _getstate(names)
        if "__setstate__" not in namespace:
            new.__setstate__ = _setstate(names)
    return new


def _getstate(names):
    def __getstate__(self):
        return [getattr(self, name) for name in names]
    return __getstate__


def _setstate(names):
    def __setstate__(self, state):
        for name, value in zip(names, state):
            _setattr(self, name, value)
    return __setstate__
