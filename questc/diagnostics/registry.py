"""The table of every diagnostic code, gathered from one module per code family."""
from __future__ import annotations

from functools import lru_cache
from importlib import import_module

from questc.diagnostics.core import Descriptor

# One module per family; each defines module-level Descriptor constants named by code.
FAMILIES = ("q0xx", "q1xx", "q2xx", "q3xx", "q4xx", "q5xx", "q6xx")


@lru_cache(maxsize=None)
def all_descriptors() -> dict[str, Descriptor]:
    table: dict[str, Descriptor] = {}
    for family in FAMILIES:
        try:
            module = import_module(f"questc.diagnostics.codes.{family}")
        except ModuleNotFoundError as error:
            if error.name != f"questc.diagnostics.codes.{family}":
                raise
            continue
        for value in vars(module).values():
            if isinstance(value, Descriptor):
                if value.code in table:
                    raise RuntimeError(f"diagnostic code {value.code} defined twice")
                table[value.code] = value
    return dict(sorted(table.items()))


def descriptor(code: str) -> Descriptor | None:
    return all_descriptors().get(code.upper())
