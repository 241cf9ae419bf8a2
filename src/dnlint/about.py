"""Which dnlint runs, for ``--version``: found without importing the command, so that
``dnlint --version`` costs little more than the interpreter's own start."""

from __future__ import annotations

import sys

__all__ = ["build_description", "version_line"]


def build_description() -> str:
    """The version line's template (``%(prog)s``, ``%(version)s``, as click's version option
    fills it): the mypyc-compiled modules (a platform wheel, or an install from source with a
    C compiler) or the pure-Python fallback, which is about half as fast."""
    from importlib.util import find_spec

    spec = find_spec("dnlint.diagnostics")  # compiled in a compiled build; found, not imported
    origin = (spec.origin if spec is not None else None) or ""
    build = "compiled with mypyc" if origin.endswith((".so", ".pyd")) else "pure Python"
    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"%(prog)s %(version)s ({build}, Python {python})"


def version_line() -> str:
    """What ``dnlint --version`` prints (without the newline)."""
    from dnlint import __version__

    return build_description() % {"prog": "dnlint", "version": __version__}
