"""A .data file as an input of its own: the files it names, checked with real files on disk
(missing, a directory, unreadable, CRLF, a link), from the folder darknet would run in."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = ("[net]\nwidth=32\nheight=32\nchannels=3\nbatch=64\nsubdivisions=16\n\n[convolutional]\n"
       "filters=21\nactivation=linear\n\n[yolo]\nmask=0,1,2\nanchors=10,13, 16,30, 33,23\n"
       "num=3\nclasses=2\n")


def _job(root: Path, data: str | bytes, names: bytes = b"cat\ndog\n",
         train: bytes | None = b"img/a.jpg\n") -> Path:
    """A training folder: data/obj.names, data/train.txt, backup/, img/a.jpg and obj.data."""
    (root / "data").mkdir()
    (root / "backup").mkdir()
    (root / "img").mkdir()
    (root / "img" / "a.jpg").write_bytes(b"\xff\xd8")
    (root / "data" / "obj.names").write_bytes(names)
    if train is not None:
        (root / "data" / "train.txt").write_bytes(train)
    (root / "model.cfg").write_text(CFG)
    path = root / "obj.data"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


GOOD = ("classes=2\ntrain=data/train.txt\nvalid=data/train.txt\nnames=data/obj.names\n"
        "backup=backup/\n")


def run(*args: str) -> tuple[int, list[tuple[str, str]]]:
    """(exit status, [(path:line, code)]) of a concise run."""
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args])
    found = []
    for line in result.output.splitlines():
        where, _, rest = line.partition(": ")
        found.append((where.rsplit(":", 1)[0] if where.count(":") > 1 else where,
                      rest.split(" ", 1)[0]))
    return result.exit_code, found


@pytest.fixture
def in_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_good_job_is_clean_alone_and_with_its_cfg(in_job: Path) -> None:
    _job(in_job, GOOD)
    assert run("obj.data") == (0, [])
    assert run("obj.data", "model.cfg") == (0, [])
    assert run("--data", "obj.data", "model.cfg") == (0, [])


def test_the_data_file_is_never_linted_as_a_cfg(in_job: Path) -> None:
    _job(in_job, GOOD)
    found = run("obj.data")[1]
    assert not any(code.startswith(("DN0", "DN1", "DN2")) for _, code in found)


def test_an_explicit_data_file_checks_the_cfgs_given_with_it(in_job: Path) -> None:
    _job(in_job, GOOD.replace("classes=2", "classes=3"))
    assert run("obj.data", "model.cfg") == (1, [("model.cfg:16", "DN412")])


def test_a_walk_finds_the_data_file_and_skips_other_data_files(in_job: Path) -> None:
    _job(in_job, GOOD.replace("backup=backup/", "backup=gone/"))
    (in_job / "numbers.data").write_text("1 2 3\n4 5 6\n")
    result = CliRunner().invoke(main, ["--format", "concise", "-q", "-v", "."])
    assert "obj.data:5:1: DN421 error" in result.output
    assert "numbers.data: skipped, not a Darknet .data file" in result.output


def test_names_that_is_a_directory_is_an_error_at_its_line(in_job: Path) -> None:
    _job(in_job, GOOD.replace("names=data/obj.names", "names=data"))
    assert run("obj.data") == (1, [("obj.data:4", "DN414")])
    assert "names=data is a directory" in CliRunner().invoke(main, ["obj.data"]).output


def test_missing_train_list_says_where_it_looked(in_job: Path) -> None:
    _job(in_job, GOOD.replace("train=data/train.txt", "train=data/nope.txt"))
    result = CliRunner().invoke(main, ["--format", "concise", "obj.data"])
    said = "obj.data:2:1: DN418 error: train file 'data/nope.txt' (line 2) not found in "
    assert f"{said}{in_job}:" in result.output  # the working directory is the .data's folder


def test_a_missing_valid_list_is_a_warning(in_job: Path) -> None:
    _job(in_job, GOOD.replace("valid=data/train.txt", "valid=data/valid.txt"))
    result = CliRunner().invoke(main, ["--format", "concise", "obj.data"])
    assert "obj.data:3:1: DN418 warning" in result.output
    assert result.exit_code == 0


def test_an_empty_train_list(in_job: Path) -> None:
    _job(in_job, GOOD, train=b"")
    # valid= names the same list: one finding, at train=
    assert run("obj.data") == (1, [("obj.data:2", "DN419")])


@pytest.mark.skipif(os.name != "posix", reason="permission bits")
def test_unreadable_files(tmp_path: Path) -> None:
    """A train list that cannot be read and a backup folder that cannot be written. Root reads
    and writes anything, so as root the check runs as an unprivileged user (nobody) in a
    world-readable folder, when this interpreter lets that user start at all."""
    unprivileged = os.geteuid() == 0
    root = Path(tempfile.mkdtemp(prefix="dnlint-unreadable-")) if unprivileged else tmp_path
    try:
        _job(root, GOOD)
        (root / "data" / "train.txt").chmod(0)
        (root / "backup").chmod(0o555)
        if unprivileged:
            for path in [root, *root.rglob("*")]:
                if path.name not in ("train.txt", "backup"):
                    path.chmod(0o755 if path.is_dir() else 0o644)
            output = _run_as_nobody(root)
        else:
            output = CliRunner().invoke(main, ["--format", "concise", "-q", str(root / "obj.data")],
                                        ).output
        found = [line.split(": ", 2)[1].split(" ")[0] + "@" + line.split(":")[1]
                 for line in output.splitlines()]
        assert found == ["DN418@2", "DN418@3", "DN421@5"], output
        assert "train=data/train.txt is not readable (permission denied)" in output
        assert "backup folder 'backup/' is not writable" in output
    finally:
        (root / "backup").chmod(0o755)
        if unprivileged:
            shutil.rmtree(root, ignore_errors=True)


def _run_as_nobody(folder: Path) -> str:
    """dnlint obj.data in ``folder`` as uid/gid 65534 (skips when that user cannot run this
    interpreter or import dnlint, e.g. a venv whose Python lives under /root)."""
    import dnlint

    source = str(Path(dnlint.__file__).parent.parent)
    command = [sys.executable, "-m", "dnlint", "--format", "concise", "-q", "obj.data"]
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120,
                              env={"PYTHONPATH": source, "PATH": os.environ.get("PATH", "")},
                              user=65534, group=65534, extra_groups=[], check=False)
    except PermissionError as exc:
        pytest.skip(f"running as root, and user 65534 cannot start {sys.executable}: {exc}")
    if done.returncode not in (0, 1):
        pytest.skip(f"running as root, and user 65534 cannot run dnlint: {done.stderr[-200:]}")
    return done.stdout


def test_backup_missing_or_a_file(in_job: Path) -> None:
    _job(in_job, GOOD.replace("backup=backup/", "backup=weights/"))
    assert run("obj.data") == (1, [("obj.data:5", "DN421")])
    (in_job / "weights").write_text("")
    result = CliRunner().invoke(main, ["obj.data"])
    assert "backup folder 'weights/' is not a directory" in result.output


def test_no_backup_line_means_slash_backup(in_job: Path) -> None:
    _job(in_job, GOOD.replace("backup=backup/\n", ""))
    if os.path.isdir("/backup") and os.access("/backup", os.W_OK):
        pytest.skip("this machine has a writable /backup")
    result = CliRunner().invoke(main, ["--format", "concise", "obj.data"])
    assert "obj.data: DN421 error: backup folder '/backup/' (no backup= line: the default)" \
        in result.output


def test_a_data_file_without_train_does_not_need_a_backup(in_job: Path) -> None:
    _job(in_job, "classes=2\nnames=data/obj.names\n")
    assert run("obj.data") == (0, [])


def test_crlf_data_file_per_dialect(in_job: Path) -> None:
    _job(in_job, GOOD.replace("\n", "\r\n").encode())
    # one finding for the file, at the first path it breaks (classes=2\r is still 2)
    assert run("--dialect", "pjreddie", "obj.data") == (1, [("obj.data:2", "DN423")])
    assert run("--dialect", "alexeyab", "obj.data") == (0, [])
    code, found = run("obj.data")  # dialect not known: a warning that names the fork
    assert (code, found) == (0, [("obj.data:2", "DN423")])


def test_crlf_train_list_and_names(in_job: Path) -> None:
    _job(in_job, GOOD, names=b"cat\r\ndog\r\n", train=b"img/a.jpg\r\n")
    found = run("--dialect", "pjreddie", "obj.data")
    # train= and valid= name the same list: the text report prints its finding once
    assert found == (1, [("data/train.txt:1", "DN423"), ("data/obj.names:1", "DN424")])
    assert run("--dialect", "alexeyab", "obj.data") == (0, [])


def test_windows_separator(in_job: Path) -> None:
    _job(in_job, GOOD.replace("names=data/obj.names", "names=data\\obj.names"))
    if os.sep == "\\":
        pytest.skip("'\\' is a separator here")
    assert run("obj.data") == (1, [("obj.data:4", "DN422")])


def test_blank_names_lines_are_reported_in_the_names_file(in_job: Path) -> None:
    _job(in_job, GOOD, names=b"cat\n\ndog\n")
    assert run("obj.data") == (0, [("data/obj.names:2", "DN426")])
    assert run("data/obj.names") == (0, [("data/obj.names:2", "DN426")])


def test_paths_only_beside_the_data_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    job = tmp_path / "job"
    job.mkdir()
    _job(job, GOOD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    data = str(job / "obj.data")
    assert run(data) == (0, [(data + ":2", "DN425")])  # one finding, at the first line
    assert run("--data-root", str(job), data) == (0, [])
    assert run("--data-root", str(elsewhere), data)[1][0] == (data + ":2", "DN418")
    (elsewhere / ".dnlint.toml").write_text(f'data-root = "{job}"\n')
    (job / ".dnlint.toml").write_text('data-root = "."\n')
    assert run(data) == (0, [])


def test_a_link_to_the_names_file_is_followed(in_job: Path) -> None:
    _job(in_job, GOOD.replace("names=data/obj.names", "names=link.names"))
    (in_job / "link.names").symlink_to(in_job / "data" / "obj.names")
    assert run("obj.data") == (0, [])
    (in_job / "dangling.names").symlink_to(in_job / "nowhere")
    _replace(in_job / "obj.data", "link.names", "dangling.names")
    assert run("obj.data") == (1, [("obj.data:4", "DN414")])


def test_check_images_is_opt_in(in_job: Path) -> None:
    _job(in_job, GOOD, train=b"img/a.jpg\nimg/b.jpg\n")
    assert run("obj.data") == (0, [])
    found = run("--check-images", "--dialect", "pjreddie", "obj.data")
    assert found == (1, [("data/train.txt:2", "DN420")])
    result = CliRunner().invoke(main, ["--check-images", "--dialect", "alexeyab", "obj.data"])
    assert "DN420 warning" in result.output and result.exit_code == 0


def test_check_images_lists_the_first_few(in_job: Path) -> None:
    listed = b"".join(b"img/missing%d.jpg\n" % n for n in range(25))
    _job(in_job, GOOD.replace("valid=data/train.txt\n", ""), train=listed)
    found = run("--check-images", "obj.data")[1]
    assert found.count(("data/train.txt", "DN420")) == 1  # the count of the rest
    assert len([f for f in found if f[1] == "DN420"]) == 11


def test_a_missing_data_file(in_job: Path) -> None:
    assert run("none.data") == (2, [("none.data", "DN029")])
    (in_job / "fifo.data").symlink_to(in_job / "nowhere")
    assert run("fifo.data") == (2, [("fifo.data", "DN029")])


def _replace(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def test_the_fixture_job_is_clean_from_its_folder_and_with_data_root(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import FIXTURES

    job = FIXTURES / "job"
    assert run("--data-root", str(job), "--check-images", str(job / "obj.data"),
               str(job / "model.cfg")) == (0, [])
    monkeypatch.chdir(job)
    assert run("--check-images", "obj.data", "model.cfg") == (0, [])
    assert run("--dialect", "pjreddie", "--data", "obj.data", "model.cfg") == (0, [])


def test_many_blank_names_lines_are_counted_not_listed(in_job: Path) -> None:
    import json

    _job(in_job, GOOD, names=b"cat\n" + b"\n" * 100_000 + b"dog\n")
    result = CliRunner().invoke(main, ["--format", "json", "data/obj.names"])
    found = json.loads(result.output)["files"][0]["diagnostics"]
    assert [d["line"] for d in found] == [*range(2, 12), 12]
    assert found[-1]["message"] == "and 99,990 more blank lines in the names file"


@pytest.mark.parametrize("valid", ["data/train.txt", "./data/train.txt", "data/../data/train.txt"])
def test_valid_naming_the_train_list_reports_each_finding_once(in_job: Path, valid: str) -> None:
    """valid= and train= naming one list (however spelled): its findings once, in every
    format and in the counts."""
    _job(in_job, GOOD.replace("valid=data/train.txt", f"valid={valid}"),
         train=b"img/a.jpg\r\nimg/gone.jpg\r\n")
    args = ("--no-config", "--dialect", "ab", "--check-images", "obj.data")
    assert run(*args) == (0, [("data/train.txt:2", "DN420")])
    result = CliRunner().invoke(main, ["--format", "json", *args])
    import json

    diagnostics = json.loads(result.output)["files"][0]["diagnostics"]
    assert [(d["path"], d["line"], d["code"]) for d in diagnostics] == [
        ("data/train.txt", 2, "DN420")]
    summary = CliRunner().invoke(main, ["--format", "concise", *args]).output.splitlines()[-1]
    assert summary == "Found 1 problem (1 warning) in 1 file."
    # where the original keeps the \r, the list's CRLF and both images: each once
    assert run("--no-config", "--dialect", "pj", "--check-images", "obj.data") == (1, [
        ("data/train.txt:1", "DN423"), ("data/train.txt:1", "DN420"),
        ("data/train.txt:2", "DN420")])


def test_valid_naming_the_same_missing_list_is_one_finding(in_job: Path) -> None:
    _job(in_job, GOOD.replace("data/train.txt", "data/none.txt"), train=None)
    assert run("--no-config", "obj.data") == (1, [("obj.data:2", "DN418")])


WARNED = CFG.replace("subdivisions=16", "subdivisions=24")  # DN103 at line 6, its own finding


@pytest.mark.parametrize(("config", "reason"), [
    (None, "cannot read {config}: Too many levels of symbolic links"),
    ("x = [\n", "cannot use {config}: invalid TOML: Invalid value (at end of document)"),
    ('dialect = "yolo"\n', "cannot use {config}: dialect must be one of pjreddie, pj, "
                           "original, alexeyab, ab, hank, hank-ai, auto, not 'yolo'"),
])
@pytest.mark.parametrize("order", ["cfg-first", "data-first", "--data"])
def test_a_data_file_whose_folder_configuration_is_unusable(
        in_job: Path, config: str | None, reason: str, order: str) -> None:
    """The .data file gets a DN029 naming the configuration, the cfg keeps its own findings
    (checked without the .data file), exit 2 at the end; JSON stays one whole document."""
    (in_job / "job").mkdir()
    _job(in_job / "job", GOOD)
    (in_job / "model.cfg").write_text(WARNED)
    toml = in_job / "job" / ".dnlint.toml"
    if config is None:
        toml.symlink_to(".dnlint.toml")
    else:
        toml.write_text(config)
    args = {"cfg-first": ["model.cfg", "job/obj.data"], "data-first": ["job/obj.data",
                                                                        "model.cfg"],
            "--data": ["--data", "job/obj.data", "model.cfg"]}[order]
    why = reason.format(config=toml) + (" (--data)" if order == "--data" else "")
    result = CliRunner().invoke(main, ["--format", "json", *args])
    import json

    files = {f["path"]: [(d["code"], d["line"], d["message"]) for d in f["diagnostics"]]
             for f in json.loads(result.stdout)["files"]}
    assert (result.exit_code, files) == (2, {
        "job/obj.data": [("DN029", None, why)],
        "model.cfg": [("DN103", 6, "batch=64 is not a multiple of subdivisions=24: Darknet "
                                   "trains on 48 images per batch, not 64")]})
    assert result.stderr == ""


def test_an_unusable_configuration_stops_the_run_before_the_report(in_job: Path) -> None:
    """A cfg's own folder configuration that is invalid stops the run with its one line, as
    always, but before a JSON document is begun (it once ended after '"files": [')."""
    (in_job / "sub").mkdir()
    (in_job / "sub" / "model.cfg").write_text(WARNED)
    (in_job / "model.cfg").write_text(WARNED)
    (in_job / "sub" / ".dnlint.toml").write_text("x = [\n")
    result = CliRunner().invoke(main, ["--format", "json", "model.cfg", "sub/model.cfg"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"dnlint: {in_job / 'sub' / '.dnlint.toml'}: invalid TOML: Invalid value "
               "(at end of document)\n")
