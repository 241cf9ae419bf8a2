"""close_match() is difflib.get_close_matches(word, names, n=1, cutoff) without difflib."""

from __future__ import annotations

import difflib
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from dnlint.close_match import close_match
from dnlint.options.value_checks import suggest

# few letters: repeated characters and ties, where the block order and tie-breaks matter
word = st.text(alphabet="abcab_x", max_size=14)


@settings(max_examples=3000, deadline=None)
@given(word, st.lists(word, max_size=8), st.sampled_from([0.0, 0.3, 0.6, 0.7, 0.75, 0.9, 1.0]))
def test_the_same_match_as_difflib(text: str, names: list[str], cutoff: float) -> None:
    expected = difflib.get_close_matches(text, names, n=1, cutoff=cutoff)
    assert close_match(text, names, cutoff) == (expected[0] if expected else None)


def test_darknet_names() -> None:
    names = ["filters", "size", "stride", "pad", "activation", "batch_normalize", "max_batches",
             "learning_rate", "burn_in", "policy", "steps", "scales"]
    for typo, meant in [("filter", "filters"), ("activaton", "activation"),
                        ("max_batch", "max_batches"), ("batchnormalize", "batch_normalize"),
                        ("strid", "stride"), ("max_epochs", None), ("lerning_rate",
                                                                     "learning_rate")]:
        expected = difflib.get_close_matches(typo, names, n=1, cutoff=0.7)
        assert close_match(typo, names) == meant == (expected[0] if expected else None)


def test_a_long_word_goes_to_difflib() -> None:
    """From 200 characters on, SequenceMatcher drops a word's popular characters (autojunk)."""
    long = "ab" * 150
    names = ["ab" * 149 + "c", "b" * 300]
    expected = difflib.get_close_matches(long, names, n=1, cutoff=0.7)
    assert close_match(long, names) == expected[0]


def test_a_suggestion_imports_neither_difflib_nor_re() -> None:
    code = ("import sys\nfrom dnlint.options.value_checks import suggest\n"
            "assert suggest('filtres', ['filters', 'size']) == 'filters'\n"
            "print(sorted({'difflib', 're'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
    assert suggest("sizee", ["filters", "size"]) == "size"


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="did you mean'?_aZ9é\n", max_size=24),
       st.sampled_from(["", "did you mean '", "did you mean 'x", "did you mean 'filters'?"]))
def test_the_renamed_option_is_read_from_the_hint_as_the_pattern_read_it(tail: str,
                                                                         head: str) -> None:
    """DN201's fix takes the name from "did you mean 'name'?" without a regex; the pattern it
    replaces decides what counts as that hint."""
    import re

    from dnlint.fixes.text import suggested_name

    hint = head + tail
    match = re.match(r"^did you mean '([A-Za-z0-9_]+)'\?$", hint)
    assert suggested_name(hint) == (match.group(1) if match else None)
