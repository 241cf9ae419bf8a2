"""The rule registry loads a code's family alone (dnlint.rules._FAMILIES), and the family table
says which module declares every code."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dnlint.rules import _FAMILIES, all_rules, find_rule, get_rule

# each family module in turn, in a fresh interpreter: the codes its import declared
_DECLARED_BY = """
import importlib, json
from dnlint.rules import _REGISTRY
declared = {}
for family in sorted(set(__import__("dnlint.rules", fromlist=["_FAMILIES"])._FAMILIES.values())):
    before = set(_REGISTRY)
    importlib.import_module("dnlint.rules." + family)
    declared[family] = sorted(set(_REGISTRY) - before)
print(json.dumps(declared))
"""

# one code asked for in a fresh interpreter: which family modules it loaded
_LOADED_FOR = """
import json, sys
from dnlint.rules import {function}
rule = {function}({argument!r})
families = sorted(name for name in sys.modules if name.startswith("dnlint.rules."))
print(json.dumps([rule.code if rule else None, families]))
"""


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def test_every_code_is_declared_by_the_family_the_table_names() -> None:
    declared = json.loads(_python(_DECLARED_BY))
    by_table = {family: sorted(rule.code for rule in all_rules()
                               if _FAMILIES[rule.code[:4]] == family)
                for family in declared}
    assert declared == by_table
    assert sum(map(len, declared.values())) == len(all_rules())


@pytest.mark.parametrize(("function", "argument", "code", "families"), [
    ("get_rule", "DN201", "DN201", ["dnlint.rules.options"]),
    ("find_rule", "dn001", "DN001", ["dnlint.rules.syntax"]),
    ("get_rule", "DN411", "DN411", ["dnlint.rules.heads"]),
])
def test_a_code_loads_its_family_alone(function: str, argument: str, code: str,
                                       families: list[str]) -> None:
    found, loaded = json.loads(_python(_LOADED_FOR.format(function=function,
                                                           argument=argument)))
    assert [found, loaded] == [code, families]


def test_a_name_or_an_unknown_code_loads_every_family() -> None:
    found, loaded = json.loads(_python(_LOADED_FOR.format(function="find_rule",
                                                           argument="empty-file")))
    assert found == "DN001"
    assert len(loaded) == len(set(_FAMILIES.values()))


def test_unknown_codes() -> None:
    with pytest.raises(ValueError, match='no such rule: "DN999"'):
        get_rule("DN999")
    with pytest.raises(ValueError, match='no such rule: "DN219"'):
        get_rule("DN219")  # a family's prefix, no rule of that number
    assert find_rule("DN219") is None
    assert find_rule("nothing-of-the-kind") is None
    assert find_rule("dn201") is get_rule("DN201")
