"""The pre-commit hooks work from a clone: `pre-commit try-repo <repo> dnlint --files ...`.

try-repo clones the repository (HEAD plus uncommitted changes to tracked files) and installs it
into a fresh virtualenv, which downloads dnlint's dependencies: slow the first time, and it
needs the package index. Skipped, with the reason, when pre-commit or git is missing.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\nsize=3\n"
BAD = GOOD.replace("filters=16", "filters=16\nfilter=8")

pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install '.[test]')")
if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def try_repo(hook: str, files: list[str], cwd: Path, home: Path) -> tuple[int, str]:
    if not (ROOT / ".git").exists():  # an extracted sdist: the other tests here still run
        pytest.skip("not a git checkout: try-repo needs one")
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t",
           # the hook's install would spend ~40 s compiling (setup.py); the wiring is the test
           "DNLINT_PURE": "1"}
    done = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook,
                           "--verbose", "--files", *files], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's repository: a good cfg, a broken cfg and a setup.cfg (INI, not Darknet)."""
    path = tmp_path_factory.mktemp("project")
    (path / "good.cfg").write_text(GOOD)
    (path / "bad.cfg").write_text(BAD)
    (path / "setup.cfg").write_text("[metadata]\nname = example\n")
    header = struct.pack("<iiiq", 0, 2, 5, 0)
    floats = 16 + 16 * 3 * 3 * 3  # biases, weights of the one conv layer
    (path / "good.weights").write_bytes(header + bytes(4 * floats))
    (path / "bad.weights").write_bytes(header + bytes(4 * (floats - 1)))
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    return path


def test_manifest_is_valid() -> None:
    from pre_commit.clientlib import load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"dnlint", "dnlint-fix", "dnlint-weights"}
    assert hooks["dnlint"]["exclude_types"] == ["ini"] == hooks["dnlint-fix"]["exclude_types"]
    assert hooks["dnlint-weights"]["require_serial"] is True
    # one finding per problem: the cfg hooks leave the weights files to the weights hook
    assert "--weights-beside" not in hooks["dnlint"]["entry"] + hooks["dnlint-fix"]["entry"]
    assert hooks["dnlint-weights"]["entry"].endswith("--weights-beside --weights-only")


def test_clean_cfg_passes_and_setup_cfg_is_not_linted(project: Path, home: Path) -> None:
    code, out = try_repo("dnlint", ["good.cfg", "setup.cfg"], project, home)
    assert code == 0, out
    assert "dnlint (Darknet .cfg)" in out and "Passed" in out
    assert "setup.cfg" not in out.split("dnlint (Darknet .cfg)", 1)[1]


def test_broken_cfg_fails_with_its_diagnostics(project: Path, home: Path) -> None:
    code, out = try_repo("dnlint", ["bad.cfg"], project, home)
    assert code == 1, out
    assert "Failed" in out
    assert "bad.cfg:8:1: DN201 error: unknown option 'filter' in [convolutional]" in out


def test_binary_looking_cfg_is_linted_too(project: Path, home: Path) -> None:
    """identify calls a UTF-16 file binary; the hook must not skip it."""
    (project / "utf16.cfg").write_bytes(GOOD.encode("utf-16"))
    code, out = try_repo("dnlint", ["utf16.cfg"], project, home)
    assert code == 1, out
    assert "utf16.cfg:1:1: DN015 error: file is UTF-16 encoded" in out


def test_fix_hook_repairs_the_file_and_fails_because_it_changed_it(
        project: Path, home: Path) -> None:
    """As ruff's: the fixed file is left for review, and the commit stops once."""
    fixable = "\ufeff" + GOOD.replace("[convolutional]", "[convolutional] # first")
    (project / "fixable.cfg").write_text(fixable, encoding="utf-8")
    subprocess.run(["git", "add", "fixable.cfg"], cwd=project, check=True)
    code, out = try_repo("dnlint-fix", ["fixable.cfg"], project, home)
    assert code == 1, out
    assert "files were modified by this hook" in out and "Fixed 2 problems." in out
    assert (project / "fixable.cfg").read_text(encoding="utf-8") == GOOD.replace(
        "[convolutional]", "# first\n[convolutional]")
    code, out = try_repo("dnlint-fix", ["fixable.cfg"], project, home)
    assert code == 0, out


def test_try_repo_dot_on_a_fixture(home: Path) -> None:
    """The README's command, run at the repository root."""
    code, out = try_repo("dnlint", ["fixtures/examples/broken.cfg"], ROOT, home)
    assert code == 1, out
    assert "fixtures/examples/broken.cfg:" in out and "Failed" in out


def test_weights_hook_pairs_each_file_with_its_cfg(project: Path, home: Path) -> None:
    (project / "bad.cfg").write_text(GOOD)  # bad.weights pairs with bad.cfg by its stem
    try:
        code, out = try_repo("dnlint-weights", ["good.weights", "bad.weights", "good.cfg"],
                             project, home)
    finally:
        (project / "bad.cfg").write_text(BAD)
    assert code == 1, out
    assert "dnlint (Darknet .weights)" in out and "Failed" in out
    assert "bad.weights: DN514 error: the file ends at byte 1,808" in out
    assert "good.weights:" not in out and "good.cfg" not in out


def _readme_local_config() -> str:
    """The README's `repo: local` snippet, verbatim: it must work as written."""
    text = (ROOT / "README.md").read_text()
    block = next(b for b in text.split("```yaml\n")[1:] if "repo: local" in b)
    return block.split("```", 1)[0]


@pytest.fixture(scope="module")
def user_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's repository: a cfg with its trained weights (one truncated), a .venv full of
    broken cfgs (a package's test data), all committed, with the README's hooks."""
    path = tmp_path_factory.mktemp("user-repo")
    (path / "cfg").mkdir()
    (path / "cfg" / "good.cfg").write_text(GOOD)
    (path / "cfg" / "model.cfg").write_text(GOOD)
    header = struct.pack("<iiiq", 0, 2, 5, 0)
    floats = 16 + 16 * 3 * 3 * 3
    (path / "cfg" / "good.weights").write_bytes(header + bytes(4 * floats))
    (path / "backup").mkdir()
    (path / "backup" / "model_final.weights").write_bytes(header + bytes(4 * (floats - 3)))
    venv_data = path / ".venv" / "lib" / "site-packages" / "somepkg"
    venv_data.mkdir(parents=True)
    for n in range(20):
        (venv_data / f"broken{n}.cfg").write_text(BAD)
    (path / ".pre-commit-config.yaml").write_text(_readme_local_config())
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=path, check=True)
    return path


def run_hooks(cwd: Path, home: Path, *args: str) -> tuple[int, str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    done = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--verbose", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
                          check=False)
    return done.returncode, done.stdout + done.stderr


def test_readme_local_hooks_on_a_repository(user_repo: Path, home: Path) -> None:
    """backup/model_final.weights (truncated) is reported once, by the weights hook (which
    checks model.cfg against it), and nothing under .venv is linted."""
    code, out = run_hooks(user_repo, home, "--all-files")
    assert code == 1, out
    assert ".venv" not in out, out
    finding = "backup/model_final.weights: DN514 error: the file ends at byte "
    cfg_hook, weights_hook = out.split("dnlint (Darknet .weights)", 1)
    assert cfg_hook.count(finding) == 0 and weights_hook.count(finding) == 1
    assert "cfg/good" not in out
