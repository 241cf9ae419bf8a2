"""[net] values that surprise: the whole batch in one pass (DN113), a step the original
Darknet never reaches (DN114)."""

from __future__ import annotations

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

HEAD = "[net]\nwidth=32\nheight=32\nchannels=3\n"
LAYER = "\n[convolutional]\nfilters=16\n"


def _found(net: str, dialect: Dialect = Dialect.AB) -> list[tuple[str, int | None, int | None]]:
    result = lint_cfg_bytes((HEAD + net + LAYER).encode(), "m.cfg", dialect)
    return [(d.code, d.line, d.column) for d in result.diagnostics]


@pytest.mark.parametrize(("net", "expected"), [
    ("batch=64\n", [("DN113", 5, 7)]),
    ("batch=64\nsubdivisions=16\n", []),
    ("batch=64\nsubdivisions=1\n", []),  # one pass, said on purpose
    ("batch=1\n", []),
    ("", []),  # batch defaults to 1
])
def test_whole_batch(net: str, expected: list[tuple[str, int, int]]) -> None:
    assert _found(net) == expected


def test_the_commented_out_line_is_named() -> None:
    net = "#batch=1\n#subdivisions=1\nbatch=64\n# subdivisions = 16\n"
    result = lint_cfg_bytes((HEAD + net + LAYER).encode(), "m.cfg", Dialect.AB)
    [found] = result.diagnostics
    assert found.message.startswith("batch=64 with no subdivisions (subdivisions is commented "
                                    "out at line 8): Darknet's default is subdivisions=1")


def test_a_comment_after_net_is_not_its_subdivisions() -> None:
    result = lint_cfg_bytes((HEAD + "batch=64\n" + LAYER + "#subdivisions=8\n").encode(),
                            "m.cfg", Dialect.AB)
    assert "commented out" not in result.diagnostics[0].message


STEPS = "max_batches=1000\npolicy=steps\nsteps={}\nscales=.1,10,.1,.1\n"


@pytest.mark.parametrize(("steps", "expected"), [
    ("-1,100,600,800", [("DN114", 7, 7)]),
    ("100, -1,600,800", [("DN110", 7, 12), ("DN114", 7, 12)]),  # both at the -1
    ("0,100,600,800", []),
])
def test_negative_steps_in_the_original(steps: str, expected: list[tuple[str, int, int]]) -> None:
    assert _found(STEPS.format(steps), Dialect.PJ) == expected


def test_negative_steps_are_a_warm_up_in_the_forks() -> None:
    assert _found(STEPS.format("-1,100,600,800"), Dialect.AB) == []
    assert _found(STEPS.format("-1,100,600,800"), Dialect.HANK) == []


def test_the_message_counts_the_steps_lost() -> None:
    result = lint_cfg_bytes((HEAD + STEPS.format("-1,100,600,800") + LAYER).encode(), "m.cfg",
                            Dialect.PJ)
    assert result.diagnostics[0].message.startswith(
        "step -1 is never reached (nor the 3 steps after it)")
