"""Sections of one table and text share their typing (``dnlint.options.section_memo``).

The memo exists only for speed: every finding, every parsed value, every shape and byte count
must be what typing each section afresh gives, for any mix of repeated sections, findings,
lists, unknown options and dialects.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dnlint.options.convert as convert
import dnlint.options.section_memo as section_memo
from conftest import SOURCES_ONLY
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.options.value_checks import MEMO_SIZE
from dnlint.read.document import Unmade

NET = "[net]\nwidth=64\nheight=64\nchannels=3\n"
CONV = "[convolutional]\nbatch_normalize=1\nfilters=16\nsize=3\nstride=1\npad=1\nactivation=leaky\n"
OPTIONS = ["filters=16", "filters=8", "filters=0", "size=3", "size=1", "size=-2", "stride=2",
           "pad=1", "activation=leaky", "activation=mish", "activation=swish",
           "batch_normalize=1", "groups=2", "filtres=4", "stride_x=2", "dontload=1",
           "antialiasing=1", "mask=0,1", "size=3 # kernel", "size = 3", "dilation=2",
           "  size=3", "filters= 8", "\tstride=1"]
SECTIONS = [CONV, "[maxpool]\nsize=2\nstride=2\n", "[maxpool]\nsize=2\nstride=0\n",
            "[maxpool]\nsize=2\n", "[maxpool]\n  size = 2\n",
            "[route]\nlayers=-1\n", "[shortcut]\nfrom=-2\nactivation=linear\n",
            "[upsample]\nstride=2\n", "[avgpool]\n"]
section = st.one_of(
    st.sampled_from(SECTIONS),
    st.lists(st.sampled_from(OPTIONS), min_size=1, max_size=5).map(
        lambda lines: "[convolutional]\n" + "\n".join(lines) + "\n"))


def _outcome(text: str, dialect: Dialect | None) -> Any:
    result = lint_cfg_bytes(text.encode(), "m.cfg", dialect)
    parsed = [[(o.key, o.parsed) for o in s.options] for s in result.document.sections]
    layers = ([] if result.network is None else
              [(layer.type, layer.input, layer.output, layer.params)
               for layer in result.network.layers])
    return ([(d.code, d.line, d.column, d.message, d.hint) for d in result.diagnostics],
            result.dialect, parsed, layers)


@SOURCES_ONLY
@settings(max_examples=300, deadline=None)
@given(st.lists(section, min_size=1, max_size=8),
       st.sampled_from([None, Dialect.PJ, Dialect.AB, Dialect.HANK]))
def test_shared_typing_equals_typing_afresh(sections: list[str], dialect: Dialect | None) -> None:
    text = NET + "".join(sections * 2)  # every section at least twice: the second is a hit
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convert, "text_of", lambda options, table: None)  # no memo
        afresh = _outcome(text, dialect)
    section_memo.forget_typing()
    assert _outcome(text, dialect) == afresh  # filled as it goes
    assert _outcome(text, dialect) == afresh  # every section known before


def test_a_repeated_section_shares_its_typing_and_its_merged_values() -> None:
    section_memo.forget_typing()
    result = lint_cfg_bytes((NET + CONV * 3).encode(), "m.cfg", Dialect.AB)
    assert result.diagnostics == []
    first, second, third = (layer.values for layer in result.network.layers)
    assert first.typed is not None and first.typed is second.typed is third.typed
    assert first.merged() is third.merged() and first.merged()["filters"] == 16
    assert [layer.output for layer in result.network.layers] == [(64, 64, 16)] * 3


def test_a_section_with_a_finding_is_typed_each_time() -> None:
    """Its finding is reported at every copy: the memo keeps only sections that report none."""
    section_memo.forget_typing()
    text = NET + "[convolutional]\nfilters=16\nsize=0\nactivation=leaky\n" * 2
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert [(d.code, d.line) for d in result.diagnostics] == [("DN206", 7), ("DN206", 11)]
    assert [key[1:] for key in section_memo._TYPED] == [
        ("width", "64", "height", "64", "channels", "3")]  # [net]'s: it reports nothing


def test_a_list_is_never_shared() -> None:
    """A section with a list shares its typing, but each section gets lists of its own, and
    merged values of its own (they hold the lists)."""
    section_memo.forget_typing()
    text = (NET + "[convolutional]\nfilters=18\nsize=1\nactivation=linear\n"
            + "[yolo]\nmask=0,1,2\nanchors=1,2,3,4,5,6\nclasses=1\nnum=3\n" * 3)
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    first, second, third = (s.first["mask"].parsed for s in result.document.sections[2:])
    assert first == second == third == [0, 1, 2]
    assert first is not second and second is not third and first is not third
    values = [layer.values for layer in result.network.layers[1:]]
    assert values[0].typed is not None and values[0].typed is values[1].typed
    assert values[0].typed.lists
    assert values[0].merged() is not values[1].merged()
    assert values[1].merged()["mask"] is second
    first.append(3)  # a section's own list: the next section of this text never sees it
    again = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB).document.sections[2]
    assert again.first["mask"].parsed == [0, 1, 2]


def test_a_single_option_section_made_from_a_known_text_shares_its_typing() -> None:
    section_memo.forget_typing()
    text = NET + "[convolutional]\nfilters=4\n" + "[route]\nlayers=-1\n" * 3
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert result.diagnostics == []
    routes = [layer.values for layer in result.network.layers[1:]]
    assert routes[0].typed is not None and routes[0].typed is routes[1].typed
    assert [r.section.first["layers"].parsed for r in routes] == [[-1]] * 3


def test_the_memo_stays_bounded() -> None:
    section_memo.forget_typing()
    text = NET + "".join(f"[convolutional]\nfilters={n}\nsize=1\nactivation=linear\n"
                         for n in range(1, MEMO_SIZE + 200))
    lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert 0 < len(section_memo._TYPED) <= MEMO_SIZE


def test_a_section_with_blanks_around_equals_shares_its_typing_through_its_text() -> None:
    section_memo.forget_typing()
    text = NET + "[convolutional]\nfilters=4\n" + "[route]\nlayers = -1\n" * 3
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    routes = [layer.values for layer in result.network.layers[1:]]
    assert routes[0].typed is not None and routes[1].typed is routes[0].typed
    options = [r.section.first["layers"] for r in routes]
    assert [(o.parsed, o.line, o.value_column, o.comment_at) for o in options] == [
        ([-1], 8, 10, -1), ([-1], 10, 10, -1), ([-1], 12, 10, -1)]
    assert options[0].parsed is not options[1].parsed


def test_a_repeated_section_leaves_its_options_unmade_until_asked() -> None:
    """The second and third copies of a text are typed by key (Values.shared), their options
    made, with those values and their own lines, only when something asks for them."""
    section_memo.forget_typing()
    # (a last section's text ends the file, not at a '[': another text)
    result = lint_cfg_bytes((NET + CONV * 3 + "[avgpool]\n").encode(), "m.cfg", Dialect.AB)
    sections = list(result.document.sections)[1:4]
    assert [type(section._first) is Unmade for section in sections] == [False, True, True]
    assert result.network is not None
    values = [layer.values for layer in result.network.layers]
    assert values[0] is not None and values[0].shared is None
    assert values[2] is not None and values[2].shared == {
        "batch_normalize": 1, "filters": 16, "size": 3, "stride": 1, "pad": 1,
        "activation": "leaky"}
    made = [(o.key, o.parsed, o.line) for o in sections[2].options]
    assert type(sections[2]._first) is dict
    assert made == [("batch_normalize", 1, 20), ("filters", 16, 21), ("size", 3, 22),
                    ("stride", 1, 23), ("pad", 1, 24), ("activation", "leaky", 25)]
    assert [(o.key, o.parsed) for o in sections[0].options] == [(k, v) for k, v, _ in made]
