"""The ``dnlint`` console script and ``python -m dnlint``: the command as a one-shot process.

Kept apart from the command (:mod:`dnlint.argv`, which reads a plain command line without
click, and :mod:`dnlint.cli`, click's) so that it runs before the command's imports: what it
saves is the interpreter's work around them, not dnlint's.
"""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (a few ms)
if TYPE_CHECKING:
    from typing import NoReturn


def run() -> NoReturn:
    """The command (:func:`dnlint.argv.load`) without the interpreter's collections during
    the imports and without its teardown (module clean-up and collections) at the end:
    together a sixth of a one-file run.

    The imports make little cyclic garbage, so the cycle collector is paused while they run,
    and what they made is then frozen out of later collections (``gc.freeze``). The exit is
    ``os._exit`` once the standard streams are flushed, as mypy's ``hard_exit``: everything
    dnlint writes is written, closed or committed by then. An exit status that is not a
    number, or a stream that cannot be flushed, takes the interpreter's ordinary way out.
    """
    gc.disable()
    from dnlint.argv import load

    command = load(sys.argv[1:])
    gc.freeze()
    gc.enable()
    try:
        command()
    except SystemExit as exc:
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        status = exc.code or 0
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: closed when the process started (``>&-``)
                stream.flush()
    except (OSError, ValueError):
        sys.exit(status)  # the interpreter's own exit says what it always said
    os._exit(status)
