from dnlint.cli import run

run()
