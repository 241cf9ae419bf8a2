"""dnlint.records.NamedTuple makes what typing.NamedTuple makes (start-up, issue 35): the same
fields, defaults, methods, pickling and copying; only a refused call's message differs."""

from __future__ import annotations

import copy
import pickle
import typing

import pytest

from dnlint import records


class Mine(records.NamedTuple):
    """A record."""

    name: str
    size: int = 3
    tags: tuple[str, ...] = ()

    def twice(self) -> int:
        return 2 * self.size


class Theirs(typing.NamedTuple):
    """A record."""

    name: str
    size: int = 3
    tags: tuple[str, ...] = ()

    def twice(self) -> int:
        return 2 * self.size


class One(records.NamedTuple):
    only: int


@pytest.mark.parametrize("args, kwargs", [(("a",), {}), (("a", 5), {}), (("a", 5, ("x",)), {}),
                                          ((), {"name": "b"}), (("c",), {"tags": ("y",)}),
                                          ((), {"tags": (), "size": 0, "name": "d"})])
def test_built_as_typing_builds_it(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    mine, theirs = Mine(*args, **kwargs), Theirs(*args, **kwargs)  # type: ignore[arg-type]
    assert tuple(mine) == tuple(theirs)
    assert repr(mine) == repr(theirs).replace("Theirs", "Mine")
    assert mine._asdict() == theirs._asdict()
    assert mine._replace(size=9) == theirs._replace(size=9)
    assert mine.twice() == theirs.twice()
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert type(copy.deepcopy(mine)) is Mine and copy.copy(mine) == mine
    assert hash(mine) == hash(tuple(theirs)) and mine == tuple(theirs)
    assert Mine._make(tuple(mine)) == mine
    name, size, tags = mine
    assert (name, size, tags) == (mine.name, mine.size, mine.tags) == (mine[0], mine[1], mine[2])


def test_the_class_as_typing_makes_it() -> None:
    assert Mine._fields == Theirs._fields == Mine.__match_args__ == ("name", "size", "tags")
    assert Mine._field_defaults == Theirs._field_defaults == {"size": 3, "tags": ()}
    assert Mine.__doc__ == Theirs.__doc__ == "A record."
    assert Mine.__bases__ == Theirs.__bases__ == (tuple,)
    assert (Mine.__module__, Mine.__qualname__) == (__name__, "Mine")
    assert Mine.__annotations__ == {"name": "str", "size": "int", "tags": "tuple[str, ...]"}
    assert typing.get_type_hints(Mine) == typing.get_type_hints(Theirs)
    assert One(1) == (1,) and One.__new__.__doc__ == "Create new instance of One(only,)"
    assert Mine.size.__doc__ == Theirs.size.__doc__
    with pytest.raises(AttributeError):
        Mine("a").size = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Mine("a").other = 4  # type: ignore[attr-defined]


@pytest.mark.parametrize("args, kwargs", [((), {}), (("a", 1, (), 2), {}), ((), {"bad": 1}),
                                          (("a",), {"name": "b"}), ((), {"size": 1})])
def test_refused_as_typing_refuses(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        Theirs(*args, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^Mine\.__new__\(\) "):
        Mine(*args, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unexpected field names"):
        Mine("a")._replace(bad=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Expected 3 arguments, got 1"):
        Mine._make(("a",))


def test_a_record_refuses_what_typing_refuses() -> None:
    with pytest.raises(TypeError, match="Non-default namedtuple field size cannot follow"):
        class Late(records.NamedTuple):  # type: ignore[misc]
            name: str = ""
            size: int
    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):
        class Over(records.NamedTuple):
            name: str

            def _replace(self) -> None:  # type: ignore[override]
                pass
