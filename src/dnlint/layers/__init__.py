"""Every layer type of both Darknet dialects, one declaration each.

Modules register their types with :func:`register`; :func:`by_section` finds the type that a
section name means in a dialect.
"""

from __future__ import annotations

import importlib
from functools import cache

from dnlint.dialects import Dialect
from dnlint.layers.base import LayerType

MODULES = (
    "convolutional",
    "connected",
    "pooling",
    "reshape",
    "route",
    "shortcut",
    "normalization",
    "passthrough",
    "heads",
    "recurrent",
    "misc",
)

_TYPES: list[LayerType] = []


def register(layer_type: LayerType) -> LayerType:
    _TYPES.append(layer_type)
    return layer_type


@cache
def all_types() -> tuple[LayerType, ...]:
    for module in MODULES:
        importlib.import_module(f"dnlint.layers.{module}")
    return tuple(_TYPES)


@cache
def section_table(dialect: Dialect) -> dict[str, LayerType]:
    """Section name -> layer type, as ``string_to_layer_type`` of ``dialect`` resolves it."""
    table: dict[str, LayerType] = {}
    for layer_type in all_types():
        for name in layer_type.sections.get(dialect, ()):
            table[name] = layer_type
    return table


@cache
def section_dialects() -> dict[str, frozenset[Dialect]]:
    """Every section name any dialect accepts, with the dialects that accept it."""
    found: dict[str, set[Dialect]] = {}
    for dialect in Dialect:
        for name in section_table(dialect):
            found.setdefault(name, set()).add(dialect)
    return {name: frozenset(ds) for name, ds in found.items()}


_TABLES: dict[Dialect, dict[str, LayerType]] = {}


def by_section(name: str, dialect: Dialect) -> LayerType | None:
    table = _TABLES.get(dialect)  # a plain dict: functools.cache costs more per call
    if table is None:
        table = _TABLES[dialect] = section_table(dialect)
    return table.get(name)
