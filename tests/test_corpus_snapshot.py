"""The whole command's reports on the stock cfgs are what ``fixtures/corpus_snapshot.json``
stored: the text, concise, JSON, SARIF and layer-table output, the opt-in checks and a JSON
layer table in hank-ai's dialect, byte for byte (one SHA-256 each). A change that means to
change them regenerates the file with ``python tools/corpus_snapshot.py --write``."""

from __future__ import annotations

import importlib.util
import json
import sys
from types import ModuleType

from conftest import ROOT, need_shared


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_snapshot",
                                                  ROOT / "tools" / "corpus_snapshot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("corpus_snapshot", module)
    spec.loader.exec_module(module)
    return module


def test_reports_on_the_stock_cfgs_are_byte_identical() -> None:
    shared = need_shared()
    tool = _tool()
    stored = json.loads(tool.STORED.read_text())
    now = tool.digests(shared / "corpus")
    assert len(now) == len(stored) == 140
    assert all(len(row) == len(tool.FORMATS) for row in now.values())
    assert tool.differences(stored, now) == []


def test_a_changed_report_is_named() -> None:
    tool = _tool()
    stored = {"a.cfg": {"text": "1" * 64, "json": "2" * 64}}
    now = {"a.cfg": {"text": "1" * 64, "json": "3" * 64}, "b.cfg": {"text": "4" * 64}}
    assert tool.differences(stored, now) == [
        "a.cfg [json]: 222222222222 -> 333333333333",
        "b.cfg [text]: absent -> 444444444444",
    ]
