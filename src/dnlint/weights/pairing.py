"""Which cfg a .weights file belongs to, from file names alone.

``model.weights`` pairs with ``model.cfg`` beside it. Names Darknet itself produces are
understood too: ``darknet53.conv.74`` (a backbone cut by ``darknet partial``) and AlexeyAB's
training outputs ``model_final``, ``model_last``, ``model_best`` and ``model_10000`` all come
from ``model.cfg``. A guess is used only when it is unambiguous.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

_CONV_CUT = re.compile(r"^(?P<stem>.+?)\.conv\.\d+$")
BACKUP_FOLDER = "backup"  # where AlexeyAB's `detector train` writes by default (obj.data)
_TRAINING = re.compile(r"^(?P<stem>.+?)_(?:final|last|best|\d+)$")


@dataclass(frozen=True)
class CfgMatch:
    """The cfg found for a weights file (``cfg``), or why none was chosen."""

    cfg: str | None
    candidates: tuple[str, ...]
    reason: str


def cfg_stems(weights_name: str) -> list[str]:
    """The cfg stems a weights file name points at, most specific first."""
    name = os.path.basename(weights_name)
    stem = name[: -len(".weights")] if name.endswith(".weights") else name
    stems = [stem]
    for pattern in (_CONV_CUT, _TRAINING):
        found = pattern.match(stem)
        if found and found["stem"] not in stems:
            stems.append(found["stem"])
    return stems


def find_cfg(weights_path: str) -> CfgMatch:
    """Find the cfg of ``weights_path`` by its name, without reading any file: ``stem.cfg``
    beside it, else (for a training output in AlexeyAB's ``backup/`` folder) in the folder
    above it or that folder's ``cfg/``, else a single cfg beside it that a backbone cut's name
    begins (``yolov4.conv.137`` with ``yolov4-custom.cfg``)."""
    folder = Path(weights_path).parent
    stems = cfg_stems(weights_path)
    for place in _cfg_folders(folder):
        for stem in stems:
            exact = place / f"{stem}.cfg"
            if exact.is_file():
                return CfgMatch(str(exact), (str(exact),),
                                f"same stem as {Path(weights_path).name}")
    base = stems[-1]
    if len(stems) > 1:
        # e.g. yolov4.conv.137 beside yolov4-custom.cfg only: a cfg built on that backbone
        near = sorted(str(p) for p in folder.glob(f"{_glob_escape(base)}*.cfg") if p.is_file())
        if len(near) == 1:
            return CfgMatch(near[0], tuple(near), f"the only cfg named {base}*")
        if near:
            return CfgMatch(None, tuple(near), f"several cfgs start with {base!r}")
    looked = ", ".join(f"{s}.cfg" for s in stems)
    return CfgMatch(None, (), f"no {looked} in {folder or '.'}")


def _cfg_folders(folder: Path) -> list[Path]:
    """Where a weights file's cfg may be: beside it; for one in a ``backup`` folder, also the
    folder above and its ``cfg`` folder (darknet's own layout: cfg/x.cfg, backup/x_1000)."""
    if folder.name != BACKUP_FOLDER:
        return [folder]
    above = folder.parent
    return [folder, above, above / "cfg"]


def _glob_escape(text: str) -> str:
    return re.sub(r"([\[\]*?])", r"[\1]", text)



def weights_beside(cfg_path: str) -> list[str]:
    """The weights files named after ``cfg_path``: ``x.weights``, ``x_best``, ``x_final``,
    ``x_last`` and ``x_<iterations>.weights`` beside it, and the same in a ``backup`` folder
    beside it or in the working directory. Reads directory listings only."""
    stem = Path(cfg_path).stem
    folders = [Path(cfg_path).parent]
    folders += [folders[0] / BACKUP_FOLDER, Path(BACKUP_FOLDER)]
    found: dict[str, None] = {}
    seen: set[str] = set()
    for folder in folders:
        real = os.path.realpath(folder)
        if real in seen:
            continue
        seen.add(real)
        found.update(dict.fromkeys(_named_after(stem, folder)))
    return list(found)


def _named_after(stem: str, folder: Path) -> list[str]:
    """The weights files named after ``stem`` in ``folder``, by name: one that cannot be
    looked at (a symbolic link loop, a permission) is listed too, so that the check reports
    it, and it never hides the others."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries
                           if entry.name.endswith(".weights") and stem in cfg_stems(entry.name)
                           and _file_or_unreadable(entry))
    except OSError:
        return []
    return [str(folder / name) for name in names]


def _file_or_unreadable(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:  # ELOOP, EACCES: the weights check says which
        return True
