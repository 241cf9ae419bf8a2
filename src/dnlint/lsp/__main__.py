"""``python -m dnlint.lsp``: the language server over stdio."""

from dnlint.lsp import run

run()
