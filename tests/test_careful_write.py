"""Every file dnlint writes is written as a careful editor saves one: ``--fix`` refuses a file
changed since it was read (an editor's save in between), a file the user may not write, one
with several hard links; the new file keeps owner, group and mode; ``-o`` and ``--graph``
go through the same checks. Real files, links and permissions; what needs an unprivileged
user runs as ``nobody`` in a forked child when the suite runs as root."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import dnlint.fixes.run
from conftest import NOBODY, as_nobody
from dnlint.run.outputs import AtomicOutput, OutputError, file_state, replace_file
from test_fix import cli

LAYER = "\n[convolutional]\nfilters=8\nsize=1\nactivation=linear\n"
FIXABLE = "[net]\nwidth=416 # c\nheight=416\nchannels=3\n" + LAYER
FIXED = "[net]\n# c\nwidth=416\nheight=416\nchannels=3\n" + LAYER

IS_ROOT = os.geteuid() == 0


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(FIXABLE, encoding="utf-8")
    return tmp_path


def _edit_after_the_read(monkeypatch: pytest.MonkeyPatch, edit: Callable[[], None]) -> None:
    """Run ``edit`` (the user's editor saving) after dnlint read and fixed the bytes, before it
    writes them."""
    real = dnlint.fixes.run.fix_bytes

    def fix_then_edit(*args: object, **kwargs: object) -> dnlint.fixes.run.Fixed:
        fixed = real(*args, **kwargs)  # type: ignore[arg-type]
        edit()
        return fixed

    monkeypatch.setattr(dnlint.fixes.run, "fix_bytes", fix_then_edit)


# --- a file changed between the read and the write --------------------------------------------

def test_an_edit_saved_after_the_read_is_kept(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = FIXABLE + "\n[maxpool]\nsize=2\n"
    _edit_after_the_read(monkeypatch, lambda: (cwd / "m.cfg").write_text(mine))
    assert cli("--fix-only", "m.cfg") == (
        2, "No problems fixed.\n",
        "dnlint: m.cfg: changed since dnlint read it: not fixed (run dnlint again)\n")
    assert (cwd / "m.cfg").read_text() == mine


def test_an_edit_of_the_same_size_and_time_is_caught_by_the_content(
        cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A coarse timestamp (FAT, some network mounts) may hide an edit: the bytes decide."""
    path = cwd / "m.cfg"
    before = path.stat()
    mine = FIXABLE.replace("416", "608", 1)

    def same_size_same_time() -> None:
        path.write_text(mine)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))

    _edit_after_the_read(monkeypatch, same_size_same_time)
    code, _, err = cli("--fix", "-q", "--format", "concise", "m.cfg")
    assert (code, err) == (
        2, "dnlint: m.cfg: changed since dnlint read it: not fixed (run dnlint again)\n")
    assert path.read_text() == mine


def test_a_file_replaced_by_an_editor_is_kept(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor that saves by renaming a new file over the old one: another inode."""
    def editor_save() -> None:
        (cwd / "new").write_text(FIXABLE)
        os.replace(cwd / "new", cwd / "m.cfg")

    _edit_after_the_read(monkeypatch, editor_save)
    assert cli("--fix-only", "m.cfg")[0] == 2
    assert (cwd / "m.cfg").read_text() == FIXABLE


def test_a_file_removed_after_the_read_is_not_recreated(
        cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit_after_the_read(monkeypatch, (cwd / "m.cfg").unlink)
    assert cli("--fix-only", "m.cfg") == (
        2, "No problems fixed.\n",
        "dnlint: m.cfg: was removed since dnlint read it: not fixed (run dnlint again)\n")
    assert os.listdir(cwd) == []


def test_replace_file_is_the_one_careful_write(tmp_path: Path) -> None:
    """The API other writers (--add-suppressions) use: the state and bytes read, then the
    new bytes."""
    path = tmp_path / "a.cfg"
    path.write_bytes(b"old")
    seen = file_state(str(path))
    replace_file(str(path), b"new", seen, b"old")
    assert path.read_bytes() == b"new"
    with pytest.raises(OutputError, match=r"a\.cfg: changed since dnlint read it: not written"):
        replace_file(str(path), b"newer", seen, b"old")  # the state is the old file's
    with pytest.raises(OutputError, match="was created since dnlint read it"):
        replace_file(str(path), b"x", None)
    assert path.read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["a.cfg"]  # no temporary file left


# --- who may write it, and what it keeps ---------------------------------------------------

def test_a_fixed_file_keeps_its_mode(cwd: Path) -> None:
    (cwd / "m.cfg").chmod(0o640)
    assert cli("--fix-only", "m.cfg")[0] == 0
    assert stat.S_IMODE((cwd / "m.cfg").stat().st_mode) == 0o640
    assert (cwd / "m.cfg").read_text() == FIXED


@pytest.mark.skipif(not IS_ROOT, reason="only root can give a file to another user")
def test_a_file_fixed_by_root_keeps_its_owner_and_group(cwd: Path) -> None:
    os.chown(cwd / "m.cfg", 1, 2)
    assert cli("--fix-only", "m.cfg") == (0, "Fixed 1 problem.\n", "")
    info = (cwd / "m.cfg").stat()
    assert (info.st_uid, info.st_gid, (cwd / "m.cfg").read_text()) == (1, 2, FIXED)


def test_a_file_without_write_permission_is_not_fixed(cwd: Path) -> None:
    """For root too: a file without any write bit was made read-only on purpose."""
    (cwd / "m.cfg").chmod(0o444)
    assert cli("--fix-only", "m.cfg") == (
        2, "No problems fixed.\n", "dnlint: m.cfg: no write permission: not fixed\n")
    assert (cwd / "m.cfg").read_text() == FIXABLE


def test_a_file_with_two_hard_links_is_not_fixed(cwd: Path) -> None:
    """Replacing one name would leave the other with the old text: refused, both unchanged."""
    os.link(cwd / "m.cfg", cwd / "other.cfg")
    assert cli("--fix-only", "m.cfg") == (
        2, "No problems fixed.\n",
        "dnlint: m.cfg: has 2 hard links: not fixed (a new file would leave the other names "
        "with the old text)\n")
    assert (cwd / "m.cfg").read_text() == (cwd / "other.cfg").read_text() == FIXABLE
    assert (cwd / "m.cfg").stat().st_ino == (cwd / "other.cfg").stat().st_ino


def test_an_output_the_user_cannot_write_is_refused(cwd: Path) -> None:
    (cwd / "report.txt").write_text("mine\n")
    (cwd / "report.txt").chmod(0o444)
    assert cli("-q", "-o", "report.txt", "m.cfg") == (
        2, "", "dnlint: report.txt: no write permission: the output not written\n")
    assert (cwd / "report.txt").read_text() == "mine\n"


@pytest.mark.parametrize(("existed", "how"), [(True, "changed"), (False, "was created")])
def test_an_output_someone_wrote_during_the_run_is_kept(tmp_path: Path, existed: bool,
                                                        how: str) -> None:
    path = tmp_path / "report.txt"
    if existed:
        path.write_text("old\n")
    output = AtomicOutput(str(path), "the output")
    output.stream.write("new\n")
    path.write_text("the user's\n")
    with pytest.raises(OutputError, match=f"report.txt: {how} since dnlint read it: the output "
                                          r"not written \(run dnlint again\)"):
        output.commit()
    assert path.read_text() == "the user's\n"
    assert sorted(os.listdir(tmp_path)) == ["report.txt"]


def test_a_new_output_gets_the_usual_mode_and_one_name(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    output = AtomicOutput(str(path), "the output")
    output.stream.write("new\n")
    output.commit()
    umask = os.umask(0)
    os.umask(umask)
    info = path.stat()
    assert (stat.S_IMODE(info.st_mode), info.st_nlink) == (0o666 & ~umask, 1)
    assert sorted(os.listdir(tmp_path)) == ["report.txt"]


def test_a_replaced_output_keeps_its_mode(cwd: Path) -> None:
    (cwd / "report.txt").write_text("old\n")
    (cwd / "report.txt").chmod(0o604)
    assert cli("-q", "-o", "report.txt", "m.cfg")[0] == 0
    assert stat.S_IMODE((cwd / "report.txt").stat().st_mode) == 0o604
    assert (cwd / "report.txt").read_text().startswith("m.cfg:2:11: DN012")


# --- as an unprivileged user ------------------------------------------------------------------

def _as_nobody(args: list[str]) -> tuple[int, str, str]:
    """Run the command as ``nobody`` in a forked child (:func:`conftest.as_nobody`), after a
    run as root that loads every module a --fix and a -o need."""
    with tempfile.TemporaryDirectory() as warm:
        Path(warm, "w.cfg").write_text(FIXABLE)
        cli("--fix", "-q", "-o", os.path.join(warm, "out.txt"), os.path.join(warm, "w.cfg"))
    code, out, err = as_nobody(lambda: list(cli(*args)))
    return code, out, err


@pytest.fixture()
def open_dir() -> Iterator[Path]:
    """A directory under the system's temporary directory that nobody may enter and write in
    (pytest's own are root's alone)."""
    with tempfile.TemporaryDirectory() as name:
        os.chmod(name, 0o777)
        (Path(name) / "m.cfg").write_text(FIXABLE)
        yield Path(name)


needs_root = pytest.mark.skipif(not IS_ROOT, reason="switching to nobody needs root; run as "
                                                     "an ordinary user, the system refuses "
                                                     "these files itself")


@needs_root
def test_nobody_cannot_fix_a_file_it_may_not_write(open_dir: Path) -> None:
    """The directory lets nobody create files (a rename over m.cfg would succeed), the file
    does not let nobody write it: refused, as writing it in place would be."""
    (open_dir / "m.cfg").chmod(0o644)
    code, out, err = _as_nobody(["--fix-only", str(open_dir / "m.cfg")])
    assert (code, out) == (2, "No problems fixed.\n")
    assert err == f"dnlint: {open_dir / 'm.cfg'}: no write permission: not fixed\n"
    assert (open_dir / "m.cfg").read_text() == FIXABLE
    assert (open_dir / "m.cfg").stat().st_uid == 0


@needs_root
def test_nobody_fixes_a_group_writable_file_only_if_it_keeps_its_owner(open_dir: Path) -> None:
    """nobody may write a file of root's that the group nogroup may write, but a new file
    would belong to nobody: refused."""
    os.chown(open_dir / "m.cfg", 0, NOBODY)
    (open_dir / "m.cfg").chmod(0o666)
    code, _, err = _as_nobody(["--fix-only", str(open_dir / "m.cfg")])
    assert (code, err) == (2, f"dnlint: {open_dir / 'm.cfg'}: owned by another user or group: not "
                              "fixed (a new file would change its owner)\n")
    assert (open_dir / "m.cfg").read_text() == FIXABLE


@needs_root
def test_nobody_fixes_its_own_file(open_dir: Path) -> None:
    os.chown(open_dir / "m.cfg", NOBODY, NOBODY)
    (open_dir / "m.cfg").chmod(0o600)
    assert _as_nobody(["--fix-only", str(open_dir / "m.cfg")]) == (0, "Fixed 1 problem.\n", "")
    info = (open_dir / "m.cfg").stat()
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (NOBODY, 0o600)
    assert (open_dir / "m.cfg").read_text() == FIXED


@needs_root
def test_nobody_cannot_fix_a_file_in_a_directory_it_may_not_write(open_dir: Path) -> None:
    """The file lets nobody write it, its directory does not let nobody create the new file:
    refused, and said so."""
    (open_dir / "m.cfg").chmod(0o666)
    open_dir.chmod(0o755)
    code, _, err = _as_nobody(["--fix-only", str(open_dir / "m.cfg")])
    assert (code, err) == (2, f"dnlint: {open_dir / 'm.cfg'}: cannot create a file beside it "
                              "(Permission denied): not fixed\n")
    assert (open_dir / "m.cfg").read_text() == FIXABLE
