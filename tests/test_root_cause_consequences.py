"""One root cause, one finding, for three more consequence classes: a line without '=' and the
repeats of its key, a head behind a layer that could not be built, and the zeroed layer of an
unknown section that AlexeyAB's Darknet later divides by zero on (each case as AlexeyAB's
Darknet 59596d7 ran it, CPU build: SIGFPE at parser.c:1751, ``avg_outputs / avg_counter``,
or where it is not named, an error or abort before it)."""

from __future__ import annotations

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult

NET = "[net]\nwidth=64\nheight=64\nchannels=3\n\n"
CONV = "[convolutional]\nfilters=16\nsize=3\nactivation=leaky\n"  # lines 6-9
BARE = ("line 'pad' has no '='; Darknet stores it as a key with no value, ignores it and lets it "
        "hide any later line with the same key")
FORKS = [Dialect.PJ, Dialect.AB]


def lint(text: str, dialect: Dialect) -> FileResult:
    return lint_cfg_bytes(text.encode(), "t.cfg", dialect)


def found(text: str, dialect: Dialect) -> list[tuple[str, int | None, str]]:
    return [(d.code, d.line, d.message) for d in lint(text, dialect).diagnostics]


# --- a line without '=' ------------------------------------------------------------------------
@pytest.mark.parametrize("dialect", FORKS)
def test_a_bare_line_repeated_is_two_bare_lines_not_a_repeated_key(dialect: Dialect) -> None:
    assert found(NET + CONV + "pad\npad\n", dialect) == [("DN006", 10, BARE),
                                                         ("DN006", 11, BARE)]


@pytest.mark.parametrize("dialect", FORKS)
def test_a_bare_line_names_the_first_line_it_hides(dialect: Dialect) -> None:
    # the bare first hides both later lines (option_find returns its NULL value): one finding
    assert found(NET + CONV + "pad\nstride=1\npad=1\npad=0\n", dialect) == [
        ("DN006", 10, BARE + "; here it hides line 12 ('pad=1')")]
    # a bare repeat of a key given before: ignored as a bare line, one finding
    assert found(NET + CONV + "pad=1\nstride=1\npad\n", dialect) == [("DN006", 12, BARE)]


@pytest.mark.parametrize("dialect", FORKS)
def test_each_bare_line_names_its_own_hidden_line_however_far(dialect: Dialect) -> None:
    """Every bare line first, every line it hides after: each DN006 found by its line (a
    search back through the findings for each took quadratic time: bench_memory's
    hidden-keys case)."""
    keys = [f"k{i}" for i in range(300)]  # bare on lines 10..309, with '=1' on 310..609
    text = NET + CONV + "".join(f"{k}\n" for k in keys) + "".join(f"{k}=1\n" for k in keys)
    every = lint_cfg_bytes(text.encode(), "t.cfg", dialect, fold=False).diagnostics
    bare = [(d.line, d.message.rsplit("; ", 1)[-1]) for d in every if d.code == "DN006"]
    assert len(bare) == 300
    assert bare[0] == (10, "here it hides line 310 ('k0=1')")
    assert bare[-1] == (309, "here it hides line 609 ('k299=1')")


@pytest.mark.parametrize("dialect", FORKS)
def test_two_lines_with_values_are_still_a_repeated_key(dialect: Dialect) -> None:
    assert [(c, line) for c, line, _ in found(NET + CONV + "pad=1\npad=0\n", dialect)] == [
        ("DN009", 11)]
    assert [(c, line) for c, line, _ in found(NET + CONV + "pad\n\n" + CONV + "pad=1\npad=0\n",
                                              dialect)] == [("DN006", 10), ("DN009", 17)]


def test_hank_ignores_bare_lines_and_says_so_once_each() -> None:
    assert [(c, line) for c, line, _ in found(NET + CONV + "pad\npad=1\npad\n", Dialect.HANK)] \
        == [("DN006", 10), ("DN006", 12)]


# --- a head behind a layer that could not be built -----------------------------------------------
HEADS = """\
[net]
width=64
height=64
channels=3

[convolutional]
filters=18
size=1
activation=linear

[yolo]
mask=3,4,5
anchors=10,13, 16,30, 33,23, 30,61, 62,45, 59,119
classes=1
num=6

[route]
layers=-2

[convolutional]
filters=16
size={size}
stride=1
activation=leaky

[convolutional]
filters=18
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23, 30,61, 62,45, 59,119
classes=1
num=6
"""


@pytest.mark.parametrize("dialect", FORKS)
def test_a_head_behind_an_unbuilt_layer_is_not_compared(dialect: Dialect) -> None:
    # size=99 on a 64x64 input: layer 3 cannot be built, the head at line 31 gets 0x0
    assert [(c, line) for c, line, _ in found(HEADS.format(size=99), dialect)] == [
        ("DN390", 20), ("DN307", 22), ("DN307", 22)]
    # built (62x62), the same two heads are compared: the masks are the wrong way round
    assert found(HEADS.format(size=3), dialect) == [(
        "DN428", 12, "this head's grid is 64x64 but its mask holds larger anchors than the "
        "62x62 head at line 31: the finest grid should predict the smallest anchors")]


# --- the zeroed layer of an unknown section ----------------------------------------------------
CRASH = ("; that layer is 0x0 and no other is wider and taller than 1, so AlexeyAB's Darknet "
         "then divides by zero at the end of parse_network_cfg (avg_outputs / avg_counter) and "
         "dies of SIGFPE")
UNKNOWN = "unknown section [foo]: Darknet prints 'Type not recognized' and builds an all-zero " \
          "layer in its place"


@pytest.mark.parametrize(("after", "code", "message"), [
    ("[foo]\nx=1\n", "DN020", UNKNOWN),
    ("[foo]\n\n[connected]\noutput=10\n", "DN020", UNKNOWN),
    ("[foo]\n\n[upsample]\nstride=2\n", "DN020", UNKNOWN),
    ("[foo]\n\n[route]\nlayers=-1\n", "DN020", UNKNOWN),  # l.w of the route: the zeroed 0
    ("[connected]\noutput=20\n\n[foo]\n\n[softmax]\n", "DN020", UNKNOWN),
    # a head of 0 values on the 0x0 layer passes parse_yolo's outputs == inputs
    ("[foo]\n\n[yolo]\nmask=0\nanchors=1,1\nnum=1\nclasses=1\n", "DN020", UNKNOWN),
    ("[foo]\n\n[region]\nanchors=1,1\nnum=1\nclasses=1\n", "DN020", UNKNOWN),
    ("[foo]\n\n[sam]\nfrom=-1\n", "DN020", UNKNOWN),  # 0x0 onto 0x0: no assert fails
    ("[net]\nwidth=3\n\n[dropout]\n", "DN022",
     "a second [net] section: Darknet builds it as an unknown, all-zero layer"),
])
def test_the_unknown_section_error_names_alexeyabs_division_by_zero(after: str, code: str,
                                                                    message: str) -> None:
    line = 6 if after.startswith("[") and not after.startswith("[connected]") else 9
    ab = found(NET + after, Dialect.AB)
    assert ab[0] == (code, line, message + CRASH)
    assert [c for c, _, _ in ab[1:]] in ([], ["DN390"])  # no DN313 of its own
    # the original Darknet has no such average, hank-ai's stops at the name: not said there
    assert found(NET + after, Dialect.PJ)[0] == (code, line, message)
    assert CRASH not in found(NET + after, Dialect.HANK)[0][2]


@pytest.mark.parametrize("after", [
    CONV + "\n[foo]\n\n[connected]\noutput=2\n",  # the convolution before counts (64x64)
    "[foo]\n\n" + CONV,  # the convolution after stops first: 'must output image'
    "[foo]\n\n[bar]\n",  # two: said once, on the first
    "[foo]\n\n[detection]\nclasses=1\nside=7\nnum=1\n",  # its assert aborts first
    # these stop on the 0x0 input too, a consequence reported nowhere else: not the division
    "[foo]\n\n[scale_channels]\nfrom=-1\n",  # asserts w == 1 && h == 1
    "[foo]\n\n[dropout]\ndropblock=1\n",  # 'DropBlock - there must be positive values'
])
def test_no_crash_is_named_where_darknet_does_not_reach_the_division(after: str) -> None:
    messages = [m for c, _, m in found(NET + after, Dialect.AB) if c == "DN020"]
    assert [m.endswith(CRASH) for m in messages] == (
        [True, False] if "[bar]" in after else [False])


def test_without_an_unknown_section_it_is_still_dn313() -> None:
    assert [c for c, _, _ in found(NET + "[connected]\noutput=2\n", Dialect.AB)] == ["DN313"]
