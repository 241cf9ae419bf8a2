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

:func:`overload` is ``typing.overload`` for modules that must not import typing (a lint run
imports none, issue 35): at run time it returns the stub, which the implementation replaces
(mypyc compiles the implementation alone). Ruff knows it as typing's (``typing-modules``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
    from typing import overload as overload
else:
    def overload(func):
        return func

    import sys

    try:  # the field accessors collections.namedtuple uses
        from _collections import _tuplegetter
    except ImportError:
        from operator import itemgetter

        def _tuplegetter(index, doc):
            return property(itemgetter(index), doc=doc)

    # as typing.NamedTupleMeta (Python 3.10 to 3.13)
    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                             "_field_defaults", "_make", "_replace", "_asdict", "_source"})
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
    _MISSING = object()
    _tuple_new = tuple.__new__

    class _RecordMeta(type):
        def __new__(cls, typename, bases, ns):
            if bases != (NamedTuple,):
                raise TypeError("a record inherits from NamedTuple alone")
            types = ns.get("__annotations__", {})
            default_names = []
            for field_name in types:
                if field_name in ns:
                    default_names.append(field_name)
                elif default_names:
                    raise TypeError(f"Non-default namedtuple field {field_name} cannot follow "
                                    f"default field{'s' if len(default_names) > 1 else ''} "
                                    f"{', '.join(default_names)}")
            record = _record_class(typename, tuple(types),
                                   tuple(ns[name] for name in default_names), ns["__module__"])
            record.__annotations__ = record.__new__.__annotations__ = dict(types)
            for key in ns:
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in record._fields:
                    setattr(record, key, ns[key])
            return record

    NamedTuple = type.__new__(_RecordMeta, "NamedTuple", (), {})

    def _record_class(typename, fields, defaults, module):
        """``collections.namedtuple(typename, fields, defaults=defaults, module=module)``, but
        for ``__new__``: namedtuple compiles one from source (eval), this one binds its
        arguments itself (the same instances; only a refused call's message differs)."""
        count = len(fields)
        index = {name: i for i, name in enumerate(fields)}
        # what each field starts as: its default, or _MISSING for a required one
        start = (_MISSING,) * (count - len(defaults)) + defaults

        def __new__(_cls, *args, **kwargs):
            if kwargs or len(args) != count:
                args = _bind(args, kwargs)
            return _tuple_new(_cls, args)

        def _bind(args, kwargs):
            if len(args) > count:
                raise TypeError(f"{typename}.__new__() takes {count + 1} positional arguments "
                                f"but {len(args) + 1} were given")
            values = list(args) + list(start[len(args):])
            for name, value in kwargs.items():
                i = index.get(name)
                if i is None:
                    raise TypeError(f"{typename}.__new__() got an unexpected keyword argument "
                                    f"{name!r}")
                if i < len(args):
                    raise TypeError(f"{typename}.__new__() got multiple values for argument "
                                    f"{name!r}")
                values[i] = value
            missing = [fields[i] for i, value in enumerate(values) if value is _MISSING]
            if missing:
                raise TypeError(f"{typename}.__new__() missing {len(missing)} required "
                                f"argument{'s' if len(missing) > 1 else ''}: "
                                f"{', '.join(map(repr, missing))}")
            return values

        @classmethod
        def _make(cls, iterable):
            result = _tuple_new(cls, iterable)
            if len(result) != count:
                raise TypeError(f"Expected {count} arguments, got {len(result)}")
            return result

        def _replace(self, /, **kwds):
            result = self._make(map(kwds.pop, fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return result

        repr_fmt = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"

        def __repr__(self):
            """Return a nicely formatted representation string"""
            return self.__class__.__name__ + repr_fmt % self

        def _asdict(self):
            """Return a new dict which maps field names to their values."""
            return dict(zip(self._fields, self, strict=False))

        def __getnewargs__(self):
            """Return self as a plain tuple.  Used by copy and pickle."""
            return tuple(self)

        arg_list = ", ".join(fields) + ("," if count == 1 else "")
        __new__.__doc__ = f"Create new instance of {typename}({arg_list})"
        _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"
        _replace.__doc__ = (f"Return a new {typename} object replacing specified fields with "
                            "new values")
        namespace = {"__doc__": f"{typename}({arg_list})", "__slots__": (), "_fields": fields,
                     "_field_defaults": dict(zip(fields[count - len(defaults):], defaults,
                                                 strict=True)),
                     "__new__": __new__, "_make": _make, "_replace": _replace,
                     "__repr__": __repr__, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
                     "__match_args__": fields}
        if sys.version_info >= (3, 13):
            namespace["__replace__"] = _replace
        for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{typename}.{method.__name__}"
        for i, name in enumerate(fields):
            namespace[name] = _tuplegetter(i, sys.intern(f"Alias for field number {i}"))
        record = type(typename, (tuple,), namespace)
        record.__module__ = module
        return record
