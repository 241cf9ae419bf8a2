"""Standard input with --fix, --fix-only and --diff, as ruff does it: `--fix -` prints the
fixed text on standard output and the report on standard error; `--diff -` prints the diff
and exits 1 when there is something to fix."""

from __future__ import annotations

from click.testing import CliRunner

from dnlint.cli import main

BROKEN = ("[net]\nwidth=32\nheight=32\nchannels=3\nsteps=10,20,\nscales=.1,.1\n\n"
          "[convolutional]\nfilters=4\nsize=3\nactivation=linear # x\n")
FIXED = ("[net]\nwidth=32\nheight=32\nchannels=3\nsteps=10,20\nscales=.1,.1\n\n"
         "[convolutional]\nfilters=4\nsize=3\n# x\nactivation=linear\n")
CLEAN = "[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=4\nsize=1\n"


def run(stdin: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--dialect", "ab", "--select", "DN0,DN2", *args],
                                input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_fix_stdin_prints_the_fixed_text_and_reports_on_stderr() -> None:
    code, out, err = run(BROKEN, "--fix", "-")
    assert (code, out) == (0, FIXED)
    assert err == "All checks passed (1 file).\nFixed 2 problems.\n"


def test_fix_stdin_reports_what_is_left_on_stderr_and_fails() -> None:
    code, out, err = run(BROKEN + "filters=3\n", "--fix", "--format", "concise", "-")
    assert (code, out) == (1, FIXED + "filters=3\n")
    assert err.startswith("<stdin>:13:1: DN009 error: ")


def test_fix_stdin_unchanged_text_is_printed_whole() -> None:
    assert run(CLEAN, "--fix", "-")[:2] == (0, CLEAN)


def test_fix_only_stdin() -> None:
    assert run(BROKEN, "--fix-only", "-") == (0, FIXED, "Fixed 2 problems.\n")


def test_diff_stdin_prints_the_diff_and_exits_1() -> None:
    code, out, err = run(BROKEN, "--diff", "--stdin-filename", "m.cfg")
    assert code == 1 and err == "Would fix 2 problems.\n"
    assert out == ("--- a/m.cfg\n+++ b/m.cfg\n@@ -2,10 +2,11 @@\n width=32\n height=32\n"
                   " channels=3\n-steps=10,20,\n+steps=10,20\n scales=.1,.1\n \n"
                   " [convolutional]\n filters=4\n size=3\n-activation=linear # x\n+# x\n"
                   "+activation=linear\n")
    assert run(CLEAN, "--diff", "-") == (0, "", "No problems to fix.\n")
