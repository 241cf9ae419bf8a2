"""Every stock cfg of both forks: no error unless the file is really wrong.

A stock file gets no error diagnostic under its own dialect, except the files listed in
TRUE_FINDINGS, where the text does not mean what Darknet does with it. Every file the C code
refused or crashed on (per ../shared/oracle) gets an error, with the rule that explains it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ORACLES, SHARED, need_shared, oracle
from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

# (fork, cfg) -> (error codes expected, why the file really is wrong)
TRUE_FINDINGS: dict[tuple[str, str], tuple[set[str], str]] = {
    ("pjreddie", "cfg/rnn.cfg"): ({"DN202"}, "sets 'hidden', which only AlexeyAB's fork reads"),
    ("pjreddie", "cfg/rnn.train.cfg"): ({"DN202"}, "sets 'hidden', which only AlexeyAB's reads"),
    ("pjreddie", "cfg/writing.cfg"): ({"DN201"}, "[net] has 'seen', which no Darknet reads"),
    ("pjreddie", "cfg/yolov2-tiny-voc.cfg"): (
        {"DN114"},
        "steps=-1,... is AlexeyAB's warm-up idiom; the original compares steps with a size_t "
        "iteration, so -1 is never reached and the learning rate never decays",
    ),
    ("alexeyab", "cfg/writing.cfg"): ({"DN201"}, "[net] has 'seen', which no Darknet reads"),
    # (yolo9000.cfg sets batch=1 and subdivisions=1 twice with the same values: a DN009 warning)
    ("pjreddie", "cfg/yolov3-openimages.cfg"): ({"DN009"}, "batch and subdivisions set twice"),
    ("alexeyab", "cfg/yolov3-openimages.cfg"): ({"DN009"}, "batch and subdivisions set twice"),
    ("alexeyab", "cfg/efficientnet_b0.cfg"): ({"DN009"}, "momentum and decay are set twice"),
    ("alexeyab", "cfg/efficientnet-lite3.cfg"): ({"DN009"}, "momentum and decay are set twice"),
    ("alexeyab", "cfg/Gaussian_yolov3_BDD.cfg"): ({"DN201"}, "[net] max_epochs is read by none"),
    ("alexeyab", "cfg/yolov4-sam-mish-csp-reorg-bfm.cfg"): (
        {"DN201"},
        "[yolo] sets uc_normalizer (a [Gaussian_yolo] key) and beta1, which [yolo] ignores",
    ),
    ("alexeyab", "cfg/cspx-p7-mish.cfg"): (
        {"DN404"},
        "20 anchors but num=16, and the last head's mask 16..19 reads past the anchor array "
        "(one error there; the other heads' ignored extra anchors are warnings)",
    ),
    ("alexeyab", "cfg/cspx-p7-mish_hp.cfg"): (
        {"DN028"},  # the anchor count that follows from the glued number is not repeated
        "anchors '61,45    61,45' lack a comma (Darknet reads 4561), and num is too small",
    ),
}

# Files Darknet itself refuses or crashes on, with the rule that must explain it.
REFUSED_BECAUSE = {
    "DN313": "SIGFPE in parse_network_cfg: no layer input wider and taller than 1",
    "DN318": "parse_shortcut asserts equal w/h: a shortcut across a stride-2 convolution",
}


def _stock_files() -> list[tuple[str, str]]:
    files = []
    for fork in ("pjreddie", "alexeyab"):
        root = SHARED / "corpus" / fork
        files += [(fork, str(p.relative_to(root))) for p in sorted(root.rglob("*.cfg"))]
    return files


FILES = _stock_files()
OWN_DIALECT = {"pjreddie": Dialect.PJ, "alexeyab": Dialect.AB}


def _errors(fork: str, key: str, dialect: Dialect) -> dict[str, list[int | None]]:
    path = SHARED / "corpus" / fork / key
    result = lint_cfg_bytes(Path(path).read_bytes(), str(path), dialect)
    found: dict[str, list[int | None]] = {}
    for d in result.diagnostics:
        if d.severity is Severity.ERROR:
            found.setdefault(d.code, []).append(d.line)
    return found


def _oracle_status(fork: str, key: str, dialect: Dialect) -> str:
    for name, (oracle_fork, oracle_dialect) in ORACLES.items():
        if oracle_fork == fork and oracle_dialect is dialect:
            entry = oracle(name).get(key)
            return str(entry["status"]) if entry else "ok"
    return "ok"


@pytest.mark.parametrize(("fork", "key"), FILES, ids=[f"{f}:{k}" for f, k in FILES])
def test_stock_file_under_its_own_dialect(fork: str, key: str) -> None:
    need_shared()
    dialect = OWN_DIALECT[fork]
    errors = _errors(fork, key, dialect)
    if _oracle_status(fork, key, dialect) != "ok":
        assert set(errors) & set(REFUSED_BECAUSE), f"Darknet refuses {key}; dnlint: {errors}"
        return
    expected, _why = TRUE_FINDINGS.get((fork, key), (set(), ""))
    assert set(errors) == expected


PJ_ON_AB = [key for fork, key in FILES if fork == "pjreddie"]


@pytest.mark.parametrize("key", PJ_ON_AB)
def test_original_cfgs_read_by_alexeyab(key: str) -> None:
    """What AlexeyAB's build refused of the original's cfgs is an error under --dialect ab."""
    need_shared()
    entry = oracle("pjreddie-cfgs-on-alexeyab.json")[key]
    errors = _errors("pjreddie", key, Dialect.AB)
    if entry["status"] != "ok":
        assert set(errors) & set(REFUSED_BECAUSE), f"{entry['status']}: {errors}"


def test_refusals_point_at_the_responsible_line() -> None:
    need_shared()
    errors = _errors("alexeyab", "cfg/resnet50.cfg", Dialect.AB)
    text = (SHARED / "corpus" / "alexeyab" / "cfg" / "resnet50.cfg").read_text().splitlines()
    for line in errors["DN318"]:
        assert line is not None and text[line - 1].strip().startswith(("[shortcut]", "from"))


def test_every_true_finding_is_a_stock_file() -> None:
    need_shared()
    assert set(TRUE_FINDINGS) <= set(FILES)
