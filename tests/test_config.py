"""Configuration discovery and validation: .dnlint.toml, [tool.dnlint], --config, --no-config."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import WARNED_CFG
from dnlint.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib
from dnlint.settings.config import (
    ConfigError,
    ConfigFinder,
    load_config,
    open_explicit_config,
    parse_config,
)

CFG = WARNED_CFG
DN103 = "DN103 warning: batch=64 is not a multiple of subdivisions=24"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/proj/{pyproject.toml, models/a.cfg, legacy/b.cfg}; cwd is tmp/proj."""
    project = tmp_path / "proj"
    (project / "models").mkdir(parents=True)
    (project / "legacy").mkdir()
    (project / "models" / "a.cfg").write_text(CFG)
    (project / "legacy" / "b.cfg").write_text(CFG)
    monkeypatch.chdir(project)
    return project


def test_no_config_anywhere(tree: Path) -> None:
    code, out, _ = run("models/a.cfg")
    assert (code, out) == (0, f"models/a.cfg:3:14: {DN103}: Darknet trains on 48 images per "
                              "batch, not 64\n")


def test_pyproject_tool_dnlint_is_found_walking_up(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[project]\nname="x"\n\n[tool.dnlint]\n'
                                         'ignore = ["DN103"]\n')
    assert run("models/a.cfg") == (0, "", "")


def test_pyproject_without_table_is_passed_over(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.dnlint]\nignore = ["DN103"]\n')
    (tree / "models" / "pyproject.toml").write_text('[project]\nname="x"\n')
    assert run("models/a.cfg") == (0, "", "")


def test_closest_config_wins_without_merging(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.dnlint]\nignore = ["DN103"]\n')
    (tree / "models" / ".dnlint.toml").write_text('severity-override = { DN103 = "error" }\n')
    code, out, _ = run("models/a.cfg", "legacy/b.cfg")
    assert code == 1
    assert out.startswith("models/a.cfg:3:14: DN103 error: ")
    assert "legacy/b.cfg" not in out


def test_dotfile_beats_pyproject_in_the_same_directory(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.dnlint]\nignore = ["DN103"]\n')
    (tree / ".dnlint.toml").write_text('select = ["DN4"]\n')
    assert run("models/a.cfg") == (0, "", "")
    (tree / ".dnlint.toml").write_text('select = ["DN1"]\n')
    assert run("models/a.cfg")[1].startswith("models/a.cfg:3:14: DN103 warning")


def test_per_file_ignores_are_relative_to_the_config(tree: Path) -> None:
    (tree / ".dnlint.toml").write_text('[per-file-ignores]\n"legacy/*.cfg" = ["DN1"]\n')
    code, out, _ = run("models/a.cfg", "legacy/b.cfg")
    assert code == 0
    assert out.startswith("models/a.cfg:3:14:") and "legacy" not in out


def test_config_dialect_is_used_unless_the_command_line_names_one(tree: Path) -> None:
    (tree / ".dnlint.toml").write_text('dialect = "pjreddie"\n')
    result = CliRunner().invoke(main, ["-v", "--format", "concise", "models/a.cfg"])
    assert (f"models/a.cfg: dialect pjreddie (set in {tree / '.dnlint.toml'})"
            in result.stdout)
    result = CliRunner().invoke(main, ["-v", "--dialect", "ab", "models/a.cfg"])
    assert "models/a.cfg: dialect alexeyab" in result.stdout


def test_explicit_config_and_no_config(tree: Path) -> None:
    (tree / ".dnlint.toml").write_text('ignore = ["DN103"]\n')
    other = tree / "strict.toml"
    other.write_text('severity-override = { DN1 = "error" }\n')
    assert run("--config", str(other), "models/a.cfg")[0] == 1
    assert run("--no-config", "models/a.cfg")[1].startswith("models/a.cfg:3:14: DN103 warning")
    assert run("models/a.cfg") == (0, "", "")


def test_config_and_no_config_together_is_a_usage_error(tree: Path) -> None:
    code, _, err = run("--config", "x.toml", "--no-config", "models/a.cfg")
    assert code == 2 and "--config and --no-config exclude each other" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('selct = ["DN1"]\n', "unknown key(s) selct"),
        ('ignore = ["DN999"]\n', "ignore: 'DN999' matches no rule"),
        ('dialect = "darknet"\n', "dialect must be one of"),
        ('severity-override = { DN103 = "fatal" }\n', "level must be error, warning or info"),
        ("ignore = [\n", "invalid TOML"),
    ],
)
def test_bad_config_exits_2(tree: Path, text: str, message: str) -> None:
    (tree / ".dnlint.toml").write_text(text)
    code, out, err = run("models/a.cfg")
    assert (code, out) == (2, "")
    assert err.startswith(f"dnlint: {tree / '.dnlint.toml'}: ") and message in err


def test_missing_explicit_config_exits_2(tree: Path) -> None:
    code, _, err = run("--config", "nope.toml", "models/a.cfg")
    assert (code, err) == (2, "dnlint: nope.toml: no such configuration file\n")


def test_finder_caches_and_stops_at_the_root(tmp_path: Path) -> None:
    finder = ConfigFinder()
    assert finder.for_path(str(tmp_path / "a.cfg")) is None
    (tmp_path / ".dnlint.toml").write_text('ignore = ["DN1"]\n')
    assert finder.for_path(str(tmp_path / "a.cfg")) is None  # cached per directory
    fresh = ConfigFinder().for_path(str(tmp_path / "a.cfg"))
    assert fresh is not None and fresh.ignore == ("DN1",)


def test_load_pyproject_without_table_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname="x"\n')
    with pytest.raises(ConfigError, match=r"no \[tool\.dnlint\] table"):
        load_config(path)


def test_parse_config_normalises_selectors() -> None:
    config = parse_config({"select": "dn1, all", "extend-select": ["dn4"]}, None)
    assert config.select == ("DN1", "DN") and config.extend_select == ("DN4",)


# --- hostile configuration files: one-line errors, never a traceback ---------------------------

@pytest.mark.parametrize("name", ["pyproject.toml", ".dnlint.toml"])
def test_tool_that_is_not_a_table_is_a_config_error(tree: Path, name: str) -> None:
    (tree / name).write_text('tool = "dnlint"\n')
    code, out, err = run("models/a.cfg")
    if name == "pyproject.toml":  # not ours: passed over like any pyproject without the table
        assert (code, err) == (0, "")
        return
    assert (code, out) == (2, "")
    assert err == (f"dnlint: {tree / name}: 'tool' must be a table ([tool.dnlint]), "
                   "not str 'dnlint'\n")


def test_explicit_pyproject_whose_tool_is_not_a_table(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('tool = ["dnlint"]\n')
    with pytest.raises(ConfigError, match=r"'tool' must be a table \(\[tool\.dnlint\]\), "
                                          r"not list \['dnlint'\]$"):
        load_config(path)


def test_deeply_nested_toml_is_a_config_error(tree: Path) -> None:
    (tree / ".dnlint.toml").write_text("ignore = " + "[" * 5000 + "]" * 5000 + "\n")
    code, out, err = run("models/a.cfg")
    assert (code, out) == (2, "")
    assert err == (f"dnlint: {tree / '.dnlint.toml'}: invalid TOML: arrays or tables nested "
                   "too deeply\n")


def test_config_search_from_a_very_deep_directory(tmp_path: Path) -> None:
    import sys

    (tmp_path / ".dnlint.toml").write_text('ignore = ["DN1"]\n')
    depth = sys.getrecursionlimit() + 100
    deep = Path(tmp_path, *(["d"] * depth))
    finder = ConfigFinder()
    found = finder.for_path(str(deep / "a.cfg"))  # the path need not exist: only its parents
    assert found is not None and found.path == tmp_path / ".dnlint.toml"
    assert finder.for_path(str(deep.parent / "b.cfg")) is found  # every visited parent cached


def test_explicit_config_names_what_is_not_a_regular_file(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    (tmp_path / "link.toml").symlink_to(tmp_path / "gone.toml")
    cases = {"/dev/null": "/dev/null: is a character device, not a configuration file",
             str(tmp_path): f"{tmp_path}: is a directory, not a configuration file",
             str(fifo): f"{fifo}: is a FIFO (named pipe), not a configuration file",
             str(tmp_path / "link.toml"): f"{tmp_path / 'link.toml'}: no such configuration "
                                          "file (a dangling symbolic link)",
             str(tmp_path / "nope.toml"): f"{tmp_path / 'nope.toml'}: no such configuration "
                                          "file"}
    for name, message in cases.items():
        with pytest.raises(ConfigError) as raised:
            open_explicit_config(name)
        assert str(raised.value) == message


def test_explicit_config_that_is_a_regular_file_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('ignore = ["DN1"]\n')
    assert open_explicit_config(str(path)).ignore == ("DN1",)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('"sel\\u001b]0;PWNED\\u0007ct" = 1\n', "unknown key(s) sel\\x1b]0;PWNED\\x07ct"),
        ('select = ["DN1\\nDN2"]\n', "select: 'DN1\\nDN2' matches no rule"),
        ('"x\\u0085\\u007f" = 1\n', "unknown key(s) x\\x85\\x7f"),
    ],
)
def test_config_errors_carry_no_control_characters(tree: Path, text: str, shown: str) -> None:
    (tree / ".dnlint.toml").write_text(text)
    code, _, err = run("models/a.cfg")
    assert code == 2 and shown in err
    assert err.endswith("\n") and err[:-1].isprintable()


def test_config_error_escapes_an_undecodable_file_name_byte() -> None:
    assert str(ConfigError("bad\udcffname.toml: x")) == "bad\\xffname.toml: x"


# --- size: a configuration file is at most 1 MiB, refused without being read whole -----------

MIB = 1024 * 1024
TOO_LARGE = "larger than 1 MiB, the limit of a configuration file"


def _padded(text: str, size: int) -> bytes:
    """``text`` and a comment that makes it exactly ``size`` bytes."""
    body = text.encode() + b"#"
    return body + b"x" * (size - len(body) - 1) + b"\n"


def test_an_explicit_config_over_the_cap_is_a_config_error(tree: Path) -> None:
    (tree / "c.toml").write_bytes(_padded('ignore = ["DN1"]\n', MIB + 1))
    code, out, err = run("--config", "c.toml", "models/a.cfg")
    assert (code, out, err) == (2, "", f"dnlint: c.toml: {TOO_LARGE}\n")


def test_a_sparse_gigabyte_config_is_refused_by_its_size(tree: Path) -> None:
    """``truncate -s 1G c.toml``: refused from fstat, nothing read (it took 2.1 GB, 14 s)."""
    with open(tree / "c.toml", "wb") as handle:
        handle.truncate(1 << 30)
    code, _, err = run("--config", "c.toml", "models/a.cfg")
    assert (code, err) == (2, f"dnlint: c.toml: {TOO_LARGE}\n")


@pytest.mark.parametrize("name", [".dnlint.toml", "pyproject.toml"])
def test_a_discovered_config_over_the_cap_is_a_config_error(tree: Path, name: str) -> None:
    text = '[tool.dnlint]\nignore = ["DN1"]\n' if name == "pyproject.toml" else 'ignore = ["DN1"]\n'
    (tree / "models" / name).write_bytes(_padded(text, 2 * MIB))
    code, out, err = run("models/a.cfg")
    assert (code, out, err) == (2, "", f"dnlint: {tree / 'models' / name}: {TOO_LARGE}\n")


def test_a_config_of_exactly_the_cap_is_read(tree: Path) -> None:
    (tree / ".dnlint.toml").write_bytes(_padded('ignore = ["DN1"]\n', MIB))
    assert run("models/a.cfg") == (0, "", "")


def test_a_config_that_grows_past_the_cap_is_caught_by_the_read(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fstat may see less than there is (a file still being written): at most the cap and one
    byte is read, and that byte refuses it."""
    import os

    from dnlint.settings import config

    (tree / "c.toml").write_bytes(_padded('ignore = ["DN1"]\n', MIB + 1))
    real = os.fstat
    monkeypatch.setattr(config.os, "fstat",
                        lambda fd: os.stat_result((*real(fd)[:6], 0, *real(fd)[7:])))
    with pytest.raises(ConfigError, match="larger than 1 MiB"):
        config.read_config_bytes(str(tree / "c.toml"))


@pytest.mark.parametrize(("where", "content", "message"), [
    (".", "x = [\n", "{cfg}: invalid TOML: Invalid value (at end of document)"),
    (".", 'dialect = "yolo"\n', "{cfg}: dialect must be one of pjreddie, pj, original, "
                                "alexeyab, ab, hank, hank-ai, auto, not 'yolo'"),
    (".", "# " + "x" * (1024 * 1024) + "\n",
     "{cfg}: larger than 1 MiB, the limit of a configuration file"),
    (".", None, "{cfg}: cannot read: Too many levels of symbolic links (looking for the "
                "working directory's configuration)"),
    ("sub", None, "{cfg}: cannot read: Too many levels of symbolic links"),
])
def test_show_settings_with_a_bad_configuration_says_what_a_run_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, content: str | None,
        message: str) -> None:
    """One line naming the file and exit 2, never a traceback nor "cannot write to standard
    output"; in the working directory exactly the line a lint run prints."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    config = tmp_path / where / ".dnlint.toml"
    if content is None:
        config.symlink_to(".dnlint.toml")  # a link to itself: ELOOP
    else:
        config.write_text(content)
    cfg = os.path.join(where, "a.cfg")
    Path(cfg).write_text(CFG)
    expected = "dnlint: " + message.format(cfg=config) + "\n"
    assert run("--show-settings", cfg) == (2, "", expected)
    if where == ".":
        assert run(cfg) == (2, "", expected)


# every spelling of the table TOML allows that the predicate must see (a miss would ignore
# the user's configuration), and a project's ordinary mentions of dnlint it must pass over
OUR_TABLE = [
    '[tool.dnlint]\nselect = ["DN1"]', '[ tool . dnlint ]\nselect = []', '[tool."dnlint"]\nx = 1',
    "[tool.'dnlint']\nx = 1", 'tool.dnlint.select = []', '[tool]\ndnlint = {select = []}',
    '[tool]\ndnlint.select = []', 'tool = { dnlint = { select = [] } }',
    'tool = {x = 1, dnlint = {}}', '[tool]\n"dnlint" = {}', '[tool]\r\n  dnlint = {}',
    '[ tool ]\nx = 1\ndnlint = {}', '[tool.dnlint.per-file-ignores]\n"a.cfg" = ["DN1"]',
    '[project]\nname = "x"\n\n[tool . "dnlint"]\nselect = []',
]
NOT_OURS = [
    '[project]\ndependencies = ["dnlint>=0.1"]', 'dependencies = [\n  "dnlint",\n]',
    '[project]\nname = "dnlint"', "[project.optional-dependencies]\ndev = ['dnlint==1', 'ruff']",
    '# dnlint is great\n[tool.ruff]\nline-length = 100', '',
    '[project.scripts]\ndnlint = "dnlint.script:run"',
]


@pytest.mark.parametrize("text", OUR_TABLE)
def test_every_spelling_of_our_table_is_parsed(text: str) -> None:
    from dnlint.settings.config import may_hold_our_table

    assert isinstance(tomllib.loads(text)["tool"]["dnlint"], dict)
    assert may_hold_our_table(text.encode())


@pytest.mark.parametrize("text", NOT_OURS)
def test_a_project_that_only_names_dnlint_is_not_parsed(text: str) -> None:
    from dnlint.settings.config import may_hold_our_table

    assert "dnlint" not in tomllib.loads(text).get("tool", {})
    assert not may_hold_our_table(text.encode())
