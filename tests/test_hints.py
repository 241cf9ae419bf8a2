"""Every hint is right when applied: mutate stock cfgs, apply each error's hint, and the finding
is gone with no new error (property test over the corpus in ../shared)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHARED, need_shared
from dnlint.diagnostics import Diagnostic
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

STOCK = ("yolov3.cfg", "yolov3-tiny.cfg", "yolov4-tiny.cfg", "yolov2-tiny.cfg", "yolov4.cfg",
         "yolov4-p6.cfg")
HEADERS = ("[yolo]", "[region]")
# 'set classes=80 (line 610)' or 'set filters=24 at line 603'; ' or ' separates alternatives
# (the first is applied), ' and ' joins edits that go together
EDIT = re.compile(r"set (\w+)=(-?\d+)(?: \(line (\d+)\)| at line (\d+))")


@cache
def stock(name: str) -> list[str]:
    path = need_shared() / "corpus" / "alexeyab" / "cfg" / name
    return path.read_text().split("\n")


def errors(lines: list[str]) -> set[tuple[str, int | None]]:
    result = lint_cfg_bytes("\n".join(lines).encode(), "t.cfg", Dialect.AB)
    return {(d.code, d.line) for d in result.diagnostics if d.severity.value == "error"}


def diagnostics(lines: list[str]) -> list[Diagnostic]:
    return lint_cfg_bytes("\n".join(lines).encode(), "t.cfg", Dialect.AB).diagnostics


def heads(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() in HEADERS]


def key_line(lines: list[str], start: int, key: str) -> int | None:
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("["):
            return None
        if re.match(rf"\s*{key}\s*=", lines[i]):
            return i
    return None


def set_value(lines: list[str], index: int, value: str) -> list[str]:
    out = list(lines)
    out[index] = re.sub(r"=\s*[^#]*", "=" + value, out[index], count=1)
    return out


def mutate(lines: list[str], kind: str, pick: int, amount: int) -> list[str]:
    found = heads(lines)
    head = found[pick % len(found)]
    if kind == "classes":
        at = key_line(lines, head, "classes")
        return set_value(lines, at, str(1 + amount % 100)) if at is not None else lines
    if kind == "anchor pair":
        at = key_line(lines, head, "anchors")
        if at is None:
            return lines
        values = lines[at].split("=", 1)[1].split(",")
        return set_value(lines, at, ",".join(v.strip() for v in values[:-2]))
    if kind in ("width", "height"):
        net = next(i for i, line in enumerate(lines) if line.startswith("["))
        at = key_line(lines, net, kind)
        if at is None:
            return lines
        return set_value(lines, at, str(int(lines[at].split("=")[1]) + (8, 16, 32, 64)[amount % 4]))
    # delete one layer section (never [net])
    starts = [i for i, line in enumerate(lines) if line.startswith("[")][1:]
    start = starts[pick % len(starts)]
    end = next((i for i in starts if i > start), len(lines))
    return lines[:start] + lines[end:]


def apply_hint(lines: list[str], hint: str) -> list[str] | None:
    first = hint.split(" or ")[0]
    edits = EDIT.findall(first)
    if not edits:
        return None
    out = list(lines)
    for key, value, line, at_line in edits:
        index = int(line or at_line) - 1
        if not re.match(rf"\s*{key}\s*=", out[index]):
            return None  # the hint names a line that does not hold the key: a wrong hint
        out = set_value(out, index, value)
    return out


APPLIED: list[str] = []


@pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason="../shared/corpus not found")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(STOCK),
    kind=st.sampled_from(("classes", "anchor pair", "width", "height", "delete")),
    pick=st.integers(0, 400),
    amount=st.integers(0, 1000),
)
def test_each_hint_fixes_its_finding(name: str, kind: str, pick: int, amount: int) -> None:
    base = stock(name)
    known = errors(base)
    broken = mutate(base, kind, pick, amount)
    before = errors(broken)
    for diag in diagnostics(broken):
        if diag.severity.value != "error" or not diag.hint or not EDIT.search(diag.hint):
            continue
        fixed = apply_hint(broken, diag.hint)
        assert fixed is not None, f"{diag.code} hint names no line of its key: {diag.hint}"
        after = errors(fixed)
        assert (diag.code, diag.line) not in after, (kind, diag.code, diag.message, diag.hint)
        assert after <= before | known, (kind, diag.code, diag.hint, sorted(after - before))
        APPLIED.append(diag.code)


def test_the_hints_were_exercised() -> None:
    """The property test above must have applied hints (it cannot pass by finding none)."""
    need_shared()
    if not APPLIED:
        for kind in ("classes", "width", "height"):
            for name in STOCK:
                broken = mutate(stock(name), kind, 0, 5)
                APPLIED.extend(d.code for d in diagnostics(broken)
                               if d.hint and EDIT.search(d.hint) and apply_hint(broken, d.hint))
    assert {"DN408", "DN411"} <= set(APPLIED)
