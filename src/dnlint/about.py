"""Which dnlint runs, for ``--version``: found without importing the command, so that
``dnlint --version`` costs little more than the interpreter's own start."""

from __future__ import annotations

import os
import sys

__all__ = ["build_description", "version_line"]


def build_description() -> str:
    """The version line's template (``%(prog)s``, ``%(version)s``, as click's version option
    fills it): the mypyc-compiled modules (a platform wheel, or an install from source with a
    C compiler) or the pure-Python fallback, which is about half as fast."""
    import _imp  # the interpreter's own list of extension suffixes; importlib.util costs ms

    # the compiled module is found before the .py beside it, as the import system finds it
    folder = os.path.dirname(os.path.abspath(__file__))
    compiled = any(os.path.isfile(os.path.join(folder, "diagnostics" + suffix))
                   for suffix in _imp.extension_suffixes())
    build = "compiled with mypyc" if compiled else "pure Python"
    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"%(prog)s %(version)s ({build}, Python {python})"


def version_line() -> str:
    """What ``dnlint --version`` prints (without the newline)."""
    from dnlint import __version__

    return build_description() % {"prog": "dnlint", "version": __version__}
