"""String enumerations without the ``enum`` module (start-up, issue 35).

``enum`` imports ``functools`` and ``collections`` and builds its classes with a costly
metaclass: a third of a one-file run's start-up over ``python -c pass``, for three classes
(:class:`dnlint.severity.Severity`, :class:`dnlint.dialects.Dialect`). A :class:`StrEnum`
subclass behaves as the ``(str, Enum)`` class it replaces where dnlint and its API's users
touch it: each member is a ``str`` equal to its value, and a singleton (``is`` compares,
``copy`` and ``pickle`` keep it); ``.name`` and ``.value``; iteration over the class in
definition order, ``len``, and ``Cls(value)`` to look a member up (``ValueError`` otherwise);
``repr`` and ``str`` as ``enum`` writes them. It is not an ``enum.Enum`` (``isinstance``), and
a member hashes as its value does.

The members are declared as class annotations, for the type checkers, and made by
:func:`define`::

    class Colour(StrEnum):
        RED: ClassVar[Colour]

    define(Colour, RED="red")
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, TypeVar

    M = TypeVar("M", bound="StrEnum")


class StrEnumType(type):
    """The class of a :class:`StrEnum` class: iteration, ``len`` and look-up by value."""

    _members_: tuple[Any, ...]

    def __iter__(cls) -> Iterator[Any]:
        return iter(cls._members_)

    def __len__(cls) -> int:
        return len(cls._members_)

    def __call__(cls, value: object) -> Any:  # the type checkers see str's constructor
        for member in cls._members_:
            if member == value:
                return member
        raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")


class StrEnum(str, metaclass=StrEnumType):
    """A ``str`` that is one of its class's fixed members (see the module's docstring)."""

    _members_: tuple[Any, ...] = ()
    name: str

    @property
    def value(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __format__(self, spec: str) -> str:  # as str(), as enum's format() since 3.12
        return format(str(self), spec)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return type(self), (self.value,)

    def __copy__(self: M) -> M:
        return self

    def __deepcopy__(self: M, memo: object) -> M:
        return self


def define(cls: type[StrEnum], **values: str) -> None:
    """Make ``cls``'s members, ``NAME=value`` each, in this order."""
    members = []
    for name, value in values.items():
        member = str.__new__(cls, value)
        member.name = name
        setattr(cls, name, member)
        members.append(member)
    cls._members_ = tuple(members)
