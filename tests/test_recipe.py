"""The recipe family (DN7xx): off by default, on with --select DN7 or recipe = true, and what
each rule computes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main
from dnlint.rules.recipe import recipe_cfg


def codes(tmp_path: Path, cfg: str, *args: str) -> list[str]:
    path = tmp_path / "m.cfg"
    path.write_text(cfg)
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args, str(path)])
    return [line.split(": ", 2)[1].split(" ")[0] + "@" + line.split(":")[1]
            for line in result.output.splitlines()]


TESTING = recipe_cfg("batch=1\nsubdivisions=1\n", head="random=1\n")


def test_off_by_default_and_by_select_all(tmp_path: Path) -> None:
    assert codes(tmp_path, TESTING) == []
    assert codes(tmp_path, TESTING, "--select", "ALL") == []
    assert codes(tmp_path, TESTING, "--select", "DN") == []


def test_on_by_name(tmp_path: Path) -> None:
    assert codes(tmp_path, TESTING, "--select", "DN7") == [
        "DN703@1", "DN704@5", "DN705@20"]
    assert codes(tmp_path, TESTING, "--extend-select", "DN704") == ["DN704@5"]
    assert codes(tmp_path, TESTING, "--extend-select", "recipe-batch") == ["DN704@5"]
    assert codes(tmp_path, TESTING, "--select", "DN7", "--ignore", "DN705") == [
        "DN703@1", "DN704@5"]


def test_on_by_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".dnlint.toml").write_text("recipe = true\n")
    monkeypatch.chdir(tmp_path)
    assert codes(tmp_path, TESTING) == ["DN703@1", "DN704@5", "DN705@20"]
    (tmp_path / ".dnlint.toml").write_text("recipe = true\nignore = [\"DN703\"]\n")
    assert codes(tmp_path, TESTING) == ["DN704@5", "DN705@20"]
    (tmp_path / ".dnlint.toml").write_text("recipe = 1\n")
    result = CliRunner().invoke(main, [str(tmp_path / "m.cfg")])
    assert result.exit_code == 2 and "recipe must be true or false" in result.output


@pytest.mark.parametrize(("classes", "max_batches", "found"), [
    (1, 6000, []), (1, 5999, ["DN701@7"]), (3, 6000, []), (4, 6000, ["DN701@7"]),
    (4, 8000, []),
])
def test_max_batches(tmp_path: Path, classes: int, max_batches: int, found: list[str]) -> None:
    steps = f"{max_batches * 8 // 10},{max_batches * 9 // 10}"
    cfg = recipe_cfg(f"batch=64\nsubdivisions=16\nmax_batches={max_batches}\npolicy=steps\n"
                     f"steps={steps}\nscales=.1,.1\n")
    cfg = cfg.replace("classes=1", f"classes={classes}").replace(
        "filters=18", f"filters={3 * (classes + 5)}")
    assert codes(tmp_path, cfg, "--select", "DN7") == found


@pytest.mark.parametrize(("steps", "found"), [
    ("4800,5400", []), ("4790,5410", []),  # within 1% of max_batches
    ("100,4800,5400", []), ("4700,5400", ["DN702@9"]), ("5400", ["DN702@9"]),
])
def test_steps(tmp_path: Path, steps: str, found: list[str]) -> None:
    scales = ",".join([".1"] * len(steps.split(",")))
    cfg = recipe_cfg(f"batch=64\nsubdivisions=16\nmax_batches=6000\npolicy=steps\n"
                     f"steps={steps}\nscales={scales}\n")
    assert codes(tmp_path, cfg, "--select", "DN7") == found


def test_random_says_the_size_it_trains_at(tmp_path: Path) -> None:
    cfg = recipe_cfg(head="random=1\n").replace("width=32\nheight=32", "width=416\nheight=416")
    path = tmp_path / "m.cfg"
    path.write_text(cfg)
    out = CliRunner().invoke(main, ["--select", "DN7", "--dialect", "alexeyab", str(path)]).output
    assert "sizes up to 608x608" in out and "about 2.1x the memory of the configured 416x416" in out
    out = CliRunner().invoke(main, ["--select", "DN7", "--dialect", "pjreddie", str(path)]).output
    assert "sizes from 320x320 to 608x608" in out


def test_only_detectors_follow_the_recipe(tmp_path: Path) -> None:
    cfg = "[net]\nwidth=32\nheight=32\nchannels=3\nbatch=1\n\n[convolutional]\nfilters=16\n"
    assert codes(tmp_path, cfg, "--select", "DN7") == []


@pytest.mark.parametrize("code", ["DN701", "DN702", "DN703", "DN704", "DN705"])
def test_each_recipe_rule_cites_its_source(code: str) -> None:
    from dnlint.rules import get_rule

    rule = get_rule(code)
    assert "AlexeyAB's README" in rule.darknet
    assert rule.reference == "§training-recipe"
    assert "off by default" in rule.explanation()


def test_max_batches_not_below_the_training_images(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With a .data file, the recipe's floor includes the number of training images."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "obj.names").write_text("cat\n")
    (tmp_path / "train.txt").write_text("".join(f"img/{n}.jpg\n" for n in range(7000)))
    (tmp_path / "backup").mkdir()
    (tmp_path / "obj.data").write_text("classes=1\ntrain=train.txt\nnames=obj.names\n"
                                       "backup=backup/\n")
    cfg = recipe_cfg()  # max_batches=6000, enough for one class alone
    assert codes(tmp_path, cfg, "--select", "DN7") == []
    assert codes(tmp_path, cfg, "--select", "DN7", "--data", "obj.data") == ["DN701@7"]
    path = tmp_path / "m.cfg"
    out = CliRunner().invoke(main, ["--select", "DN7", "obj.data", str(path)]).output
    assert "max_batches=6000 is below 7000 for classes=1 and 7,000 training images" in out
