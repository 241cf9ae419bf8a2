"""dnlint.strenum: Severity and Dialect behave as the (str, Enum) classes they replace."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from dnlint import Severity
from dnlint.dialects import ALL, Dialect


def test_members_are_their_values_and_singletons() -> None:
    assert list(Severity) == [Severity.ERROR, Severity.WARNING, Severity.INFO]
    assert len(Dialect) == 3 and frozenset(Dialect) == ALL
    assert Severity.ERROR == "error" and isinstance(Severity.ERROR, str)
    assert Severity("warning") is Severity.WARNING and Dialect(Dialect.AB) is Dialect.AB
    assert (Severity.INFO.name, Severity.INFO.value, type(Severity.INFO.value)) == (
        "INFO", "info", str)
    assert [d.value for d in sorted(Dialect)] == ["alexeyab", "hank", "pjreddie"]


def test_lookup_of_an_unknown_value_raises_value_error() -> None:
    with pytest.raises(ValueError, match="'ERROR' is not a valid Severity"):
        Severity("ERROR")  # a name is not a value
    with pytest.raises(ValueError, match="'darknet' is not a valid Dialect"):
        Dialect("darknet")


def test_text_forms_are_enums() -> None:
    assert repr(Severity.ERROR) == "<Severity.ERROR: 'error'>"
    assert str(Dialect.PJ) == f"{Dialect.PJ}" == "Dialect.PJ"
    assert json.dumps({"severity": Severity.WARNING}) == '{"severity": "warning"}'


@pytest.mark.parametrize("member", [*Severity, *Dialect])
def test_copies_and_pickles_are_the_member(member: object) -> None:
    assert copy.copy(member) is member and copy.deepcopy(member) is member
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(member, protocol)) is member


def test_properties_of_the_classes() -> None:
    assert [s.rank for s in Severity] == [2, 1, 0]
    assert Dialect.HANK.label == "hank-ai's Darknet"
    assert {Severity.ERROR: 1}["error"] == 1  # hashed as its value
