"""``dnlint-lsp``: dnlint as a language server (LSP 3.17 over stdio).

A face, as the command and the Python API are: it reaches the stages only through
:mod:`dnlint.lsp.pipeline`, which calls :mod:`dnlint.pipeline` with the editor's settings.

Nothing here is imported by ``import dnlint`` or the ``dnlint`` command: the server's modules
load only when the server starts. The protocol layer is small and hand-written (framing and
JSON-RPC over stdio, :mod:`dnlint.lsp.rpc`), so the server needs nothing beyond dnlint
itself; the document text is kept by :mod:`dnlint.lsp.text`, which splits lines only where
LSP does (``\\n``, ``\\r\\n``, ``\\r``).
"""

from __future__ import annotations

__all__ = ["main", "run"]


def main(argv: list[str] | None = None) -> int:
    """The console script: serve over stdio until the client says exit or stdin closes."""
    from dnlint.lsp.server import run_stdio

    return run_stdio(argv)


def run() -> None:
    """The console script ``dnlint-lsp``: :func:`main`, then out without the interpreter's
    teardown, which would wait on the thread still blocked reading stdin (and abort)."""
    import os
    import sys

    code = main()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
