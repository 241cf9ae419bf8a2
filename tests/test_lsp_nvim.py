"""dnlint-lsp in a real editor: headless Neovim starts the server, and the diagnostics it
shows (``vim.diagnostic.get()``) come and go as the buffer is edited."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import WARNED_CFG as CFG
from lsp_client import server_command

SCRIPT = Path(__file__).resolve().parent / "editors" / "nvim_diagnostics.lua"


@pytest.mark.skipif(shutil.which("nvim") is None,
                    reason="nvim not installed (Debian: apt-get install neovim; CI installs it)")
def test_neovim_shows_the_diagnostics_and_clears_them_on_edit(tmp_path: Path) -> None:
    cfg = tmp_path / "model.cfg"
    cfg.write_text(CFG)
    out = tmp_path / "seen.json"
    env = dict(os.environ, DNLINT_LSP_CMD=json.dumps(server_command()), DNLINT_CFG=str(cfg),
               DNLINT_OUT=str(out), HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path),
               XDG_CACHE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    done = subprocess.run(["nvim", "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"],
                          env=env, cwd=tmp_path, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, check=False)
    assert out.exists(), done.stderr.decode("utf-8", "replace")
    seen = json.loads(out.read_text())
    assert seen["opened"] is True
    assert seen["first"] == [{"lnum": 2, "col": 13, "end_lnum": 2, "end_col": 15,
                              "severity": 2, "source": "dnlint", "code": "DN103"}]
    assert seen["cleared"] is True
    assert seen["after"] == []
