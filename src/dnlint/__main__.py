from dnlint.script import run

run()
