"""Stage 3's layer types: every layer type of every Darknet dialect, one declaration each.

Modules register their types with :func:`register`; :func:`by_section` finds the type that a
section name means in a dialect.
"""

from __future__ import annotations

from functools import cache

from dnlint.dialects import Dialect
from dnlint.network.layers.base import LayerType

_TYPES: list[LayerType] = []


def register(layer_type: LayerType) -> LayerType:
    _TYPES.append(layer_type)
    return layer_type


@cache
def all_types() -> tuple[LayerType, ...]:
    # Importing a layer module registers its types (register()); plain imports, so that a
    # reader and a tool can follow them, done here so that importing the package stays cheap
    # (start-up: --version imports the package, never the layer types).
    import dnlint.network.layers.convolutional  # noqa: I001 - registration order is the table order
    import dnlint.network.layers.connected
    import dnlint.network.layers.pooling
    import dnlint.network.layers.reshape
    import dnlint.network.layers.route
    import dnlint.network.layers.shortcut
    import dnlint.network.layers.normalization
    import dnlint.network.layers.passthrough
    import dnlint.network.layers.detection
    import dnlint.network.layers.other_heads
    import dnlint.network.layers.recurrent
    import dnlint.network.layers.misc  # noqa: F401
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
