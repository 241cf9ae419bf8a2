"""``typing.NamedTuple``'s class syntax, cheaper to run (start-up, issue 35).

``class Flags(NamedTuple): ...`` with :data:`NamedTuple` from here makes the same class
``typing.NamedTuple`` makes (``collections.namedtuple``'s, with the class body's defaults,
methods and docstring), and the type checkers see ``typing.NamedTuple`` itself. What it skips
is typing's check of every field's annotation: under ``from __future__ import annotations``
each one is a string that typing compiles, twice, into a ``ForwardRef`` (a run's records have
some 150 fields, Flags alone 47). ``__annotations__`` keeps the strings instead, which
``typing.get_type_hints`` reads the same way.

Only the class syntax of interpreted modules: a class that mypyc compiles is built by
``typing.NamedTupleMeta`` whatever the name it was imported under.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from collections import namedtuple

    # as typing.NamedTupleMeta (Python 3.10 to 3.13)
    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                             "_field_defaults", "_make", "_replace", "_asdict", "_source"})
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _RecordMeta(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, object]
                    ) -> type:
            if bases != (NamedTuple,):
                raise TypeError("a record inherits from NamedTuple alone")
            types: dict[str, object] = ns.get("__annotations__", {})
            default_names: list[str] = []
            for field_name in types:
                if field_name in ns:
                    default_names.append(field_name)
                elif default_names:
                    raise TypeError(f"Non-default namedtuple field {field_name} cannot follow "
                                    f"default field{'s' if len(default_names) > 1 else ''} "
                                    f"{', '.join(default_names)}")
            record = namedtuple(typename, list(types),
                                defaults=[ns[name] for name in default_names],
                                module=ns["__module__"])
            record.__annotations__ = record.__new__.__annotations__ = dict(types)
            for key in ns:
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in record._fields:
                    setattr(record, key, ns[key])
            return record

    NamedTuple = type.__new__(_RecordMeta, "NamedTuple", (), {})
