"""A rule's examples are its tests: every cfg example is linted as it stands.

A rule whose examples are cfgs (``examples="cfg"``) must report its own code on ``bad`` and
nothing at all on ``good``, in every dialect of its ``dialects`` (``None``: no --dialect, the
dialect is detected). Directives are applied as on the command line, so the DN9xx examples show
what a user sees. A backslash escape in an example stands for that byte (``\\r``, ``\\x00``).
A rule of a deployment target (``Rule.target``: the DN6xx rules of ``--target opencv``) is
linted with its target checked, as ``--target`` does (dnlint.targets.check_targets).
"""

from __future__ import annotations

import re

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.pipeline import check_recipe
from dnlint.rules import OPT_IN, Rule, all_rules
from dnlint.settings.policy import Policy, apply_policy, selection_for
from dnlint.targets import TARGETS, check_targets

CFG_RULES = [r for r in all_rules() if r.examples == "cfg"]


_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[rnt0\\])")
_NAMED = {b"r": b"\r", b"n": b"\n", b"t": b"\t", b"0": b"\0", b"\\": b"\\"}


def example_bytes(text: str) -> bytes:
    """The bytes an example stands for: UTF-8, with ``\\r``, ``\\x00`` and the like decoded."""
    def byte(match: re.Match[bytes]) -> bytes:
        escape = match.group(1)
        return bytes([int(escape[1:], 16)]) if escape[:1] == b"x" else _NAMED[escape]

    return _ESCAPE.sub(byte, text.encode("utf-8"))


def lint_example(text: str, dialect: Dialect | None, target: str | None = None,
                 recipe: bool = False) -> list[tuple[str, int | None]]:
    """What the command line reports: the lint, the target's checks, the recipe when selected
    (``--extend-select DN7``: the opt-in family), then the directives."""
    result = lint_cfg_bytes(example_bytes(text), "example.cfg", dialect)
    if target is not None:
        check_targets(result, (target,))
    policy = Policy(extend_select=("DN7",)) if recipe else Policy()
    selection = selection_for("example.cfg", policy, None)
    if selection.recipe:
        check_recipe(result)
    apply_policy(result, selection)
    return [(d.code, d.line) for d in result.diagnostics]


def cases() -> list[tuple[Rule, Dialect | None]]:
    return [(r, d) for r in CFG_RULES for d in r.dialects]


def case_id(case: tuple[Rule, Dialect | None]) -> str:
    rule, dialect = case
    return f"{rule.code}-{dialect.value if dialect else 'auto'}"


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_bad_example_gives_its_own_code(case: tuple[Rule, Dialect | None]) -> None:
    rule, dialect = case
    found = lint_example(rule.bad, dialect, rule.target, _opt_in(rule))
    assert rule.code in {code for code, _ in found}, found


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_good_example_is_clean(case: tuple[Rule, Dialect | None]) -> None:
    rule, dialect = case
    assert lint_example(rule.good, dialect, rule.target, _opt_in(rule)) == []


def _opt_in(rule: Rule) -> bool:
    return rule.code.startswith(OPT_IN)


OPT_IN_CASES = [case for case in cases() if _opt_in(case[0])]


@pytest.mark.parametrize("case", OPT_IN_CASES, ids=case_id)
def test_an_opt_in_rule_is_off_by_default(case: tuple[Rule, Dialect | None]) -> None:
    """The recipe's bad example gives nothing without --select DN7 (or recipe = true)."""
    rule, dialect = case
    assert lint_example(rule.bad, dialect, rule.target) == []


TARGET_CASES = [case for case in cases() if case[0].target is not None]


@pytest.mark.parametrize("case", TARGET_CASES, ids=case_id)
def test_a_target_rule_needs_its_target(case: tuple[Rule, Dialect | None]) -> None:
    """Without --target the bad example does not give the code: the target is what reports it."""
    rule, dialect = case
    assert rule.code not in {code for code, _ in lint_example(rule.bad, dialect)}


def test_the_target_rules_are_the_dn6xx_rules() -> None:
    targets = {r.code: r.target for r in all_rules() if r.target is not None}
    families = {"DN60": "opencv", "DN61": "opencv", "DN62": "tensorrt-demos",
                "DN63": "tensorrt-demos", "DN64": "hank-onnx", "DN65": "hank-onnx"}
    assert targets == {r.code: families[r.code[:4]] for r in all_rules()
                       if r.code.startswith("DN6")}
    assert set(targets.values()) <= set(TARGETS)


# rules about what comes before [net] (or about how its line reads), and directives placed there
ABOUT_THE_START = {"DN001", "DN002", "DN003", "DN004", "DN013", "DN014", "DN015", "DN018",
                   "DN023", "DN024", "DN901", "DN903"}
# rules about a '#' after a value: their bad examples need one
ABOUT_INLINE_COMMENTS = {"DN011", "DN012", "DN019", "DN904"}


def test_cfg_examples_start_with_net() -> None:
    starts = {r.code for r in CFG_RULES
              if not (r.bad.startswith("[net]\n") and r.good.startswith("[net]\n"))}
    assert starts == ABOUT_THE_START


def test_examples_have_no_inline_comments() -> None:
    """Darknet has none: a '#' after a value is part of the value (DN011, DN012 show it)."""
    for rule in CFG_RULES:
        texts = [rule.good] if rule.code in ABOUT_INLINE_COMMENTS else [rule.bad, rule.good]
        for line in "\n".join(texts).splitlines():
            assert "#" not in line or line.startswith("#"), (rule.code, line)


def test_only_rules_about_other_files_have_other_examples() -> None:
    other = {r.code: r.examples for r in all_rules() if r.examples != "cfg"}
    assert other == {
        "DN000": "none", "DN029": "none", "DN121": "none",
        "DN412": "data", "DN413": "data", "DN414": "data",
        **{f"DN{n}": "data" for n in (*range(418, 427), 429)},
        **{f"DN{n}": "data" for n in (*range(430, 448), 449)},  # the data set (dataset)
        **{code: "weights" for code in ("DN503", "DN510", "DN511", "DN512", "DN513", "DN514",
                                        "DN515", "DN516", "DN517", "DN518", "DN519", "DN520",
                                        "DN521", "DN522", "DN523", "DN524")},
    }
