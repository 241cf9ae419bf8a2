"""Heads that build but train badly: anchors that differ between heads (DN427), masks in reverse
order of stride (DN428), and a classes= hint that keeps the user's edit (DN408)."""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

SIX = "10,14, 23,27, 37,58, 81,82, 135,169, 344,319"


def head(mask: str, classes: int = 80, anchors: str = SIX, filters: int | None = None) -> str:
    filters = filters if filters is not None else 3 * (classes + 5)
    return (f"\n[convolutional]\nfilters={filters}\nactivation=linear\n\n[yolo]\nmask={mask}\n"
            f"anchors={anchors}\nnum=6\nclasses={classes}\n")


def network(first: str, second: str) -> str:
    """Two heads: the first on the 64x64 grid, the second on 32x32 (a maxpool between)."""
    return ("[net]\nwidth=64\nheight=64\nchannels=3\n\n[convolutional]\nfilters=16\n" + first
            + "\n[route]\nlayers=-3\n\n[maxpool]\nsize=2\nstride=2\n" + second)


def found(text: str) -> list[tuple[str, int | None]]:
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    return [(d.code, d.line) for d in result.diagnostics]


def test_the_usual_order_is_clean() -> None:
    assert found(network(head("0,1,2"), head("3,4,5"))) == []


def test_reverse_masks() -> None:
    text = network(head("3,4,5"), head("0,1,2"))
    assert found(text) == [("DN428", 14)]
    [diagnostic] = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB).diagnostics
    assert diagnostic.message.startswith("this head's grid is 64x64 but its mask holds larger "
                                         "anchors than the 32x32 head at line 30")


def test_heads_on_one_grid_are_not_ordered() -> None:
    text = ("[net]\nwidth=64\nheight=64\nchannels=3\n\n[convolutional]\nfilters=16\n"
            + head("3,4,5") + "\n[route]\nlayers=-3\n" + head("0,1,2"))
    assert found(text) == []


def test_anchors_that_differ() -> None:
    other = SIX.replace("10,14", "12,16")
    assert found(network(head("0,1,2"), head("3,4,5", anchors=other))) == [("DN427", 32)]
    # the list most heads carry is the reference, whichever comes first
    three = network(head("0,1,2", anchors=other), head("3,4,5")) + (
        "\n[route]\nlayers=-4\n" + head("3,4,5").replace("mask=3,4,5", "mask=0,1,2"))
    assert ("DN427", 15) in found(three)


def test_misread_anchors_are_not_compared() -> None:
    """A glued number (DN028) is the root cause; the anchors read from it are not a choice."""
    glued = SIX.replace("23,27, 37,58", "23,27 37,58") + ", 1,1"
    codes = {code for code, _ in found(network(head("0,1,2", anchors=glued), head("3,4,5")))}
    assert "DN427" not in codes and "DN428" not in codes


def test_the_classes_hint_keeps_the_users_edit() -> None:
    """The first head was edited to 2 classes (filters too); the second is still COCO's 80.
    The hint goes to the head left as shipped, not back to 80."""
    text = network(head("0,1,2", classes=2), head("3,4,5"))
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    [diagnostic] = result.diagnostics
    assert (diagnostic.code, diagnostic.line) == ("DN408", 34)
    assert diagnostic.hint == "set classes=2 (line 34) and set filters=21 at line 27"


def test_the_classes_hint_without_a_stock_value_follows_the_filters() -> None:
    """classes=4 after filters=24 (which fit 3): the classes line is the one slip, and its
    filter-count finding (DN401) would repeat it."""
    text = network(head("0,1,2", classes=3), head("3,4,5", classes=4, filters=24))
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert [(d.code, d.line, d.hint) for d in result.diagnostics] == [
        ("DN408", 34, "set classes=3 (line 34)")]


def test_two_stock_values_keep_the_old_choice() -> None:
    """80 and 20 are both shipped values: nothing says which was edited; the filters decide."""
    text = network(head("0,1,2", classes=20), head("3,4,5", classes=80, filters=75))
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert [(d.code, d.line, d.hint) for d in result.diagnostics] == [
        ("DN408", 34, "set classes=20 (line 34)")]
