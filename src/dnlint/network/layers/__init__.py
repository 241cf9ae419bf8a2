"""Stage 3's layer types: every layer type of every Darknet dialect, one declaration each.

Modules register their types with :func:`register`; :func:`by_section` finds the type that a
section name means in a dialect.
"""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.network.layers.base import LayerType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_TYPES: list[LayerType] = []
# what the functions below found, kept for the process (functools' import is start-up)
_ALL_TYPES: list[tuple[LayerType, ...]] = []
_TABLES: Final[dict[Dialect, dict[str, LayerType]]] = {}
_SECTION_DIALECTS: list[dict[str, frozenset[Dialect]]] = []


def register(layer_type: LayerType) -> LayerType:
    _TYPES.append(layer_type)
    return layer_type


def all_types() -> tuple[LayerType, ...]:
    if _ALL_TYPES:
        return _ALL_TYPES[0]
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
    _ALL_TYPES.append(tuple(_TYPES))
    return _ALL_TYPES[0]


def section_table(dialect: Dialect) -> dict[str, LayerType]:
    """Section name -> layer type, as ``string_to_layer_type`` of ``dialect`` resolves it."""
    table = _TABLES.get(dialect)
    if table is None:
        table = _TABLES[dialect] = {}
        for layer_type in all_types():
            for name in layer_type.sections.get(dialect, ()):
                table[name] = layer_type
    return table


def section_dialects() -> dict[str, frozenset[Dialect]]:
    """Every section name any dialect accepts, with the dialects that accept it."""
    if not _SECTION_DIALECTS:
        found: dict[str, set[Dialect]] = {}
        for dialect in Dialect:
            for name in section_table(dialect):
                found.setdefault(name, set()).add(dialect)
        _SECTION_DIALECTS.append({name: frozenset(ds) for name, ds in found.items()})
    return _SECTION_DIALECTS[0]


def by_section(name: str, dialect: Dialect) -> LayerType | None:
    table = _TABLES.get(dialect)
    if table is None:
        table = section_table(dialect)
    return table.get(name)
