"""DN9xx: dnlint's own directives (``# dnlint: ...`` comment lines)."""

from dnlint.rules import CONV, NET, W, rule

rule("DN901", "unused-suppression", W,
     summary="A suppression directive suppresses nothing.",
     darknet="Nothing: Darknet skips comment lines. A directive left behind after the problem was "
             "fixed hides the next real problem of that kind on that line.",
     bad=("# dnlint: disable-next-line=DN103\n[net]\nwidth=32\nheight=32\nchannels=3\n\n"
          "[convolutional]\nfilters=16\n"),
     good=NET + CONV, reference="docs/usage.md#suppressions-in-the-cfg")
rule("DN902", "unknown-code-in-directive", W,
     summary="A directive names a code or prefix that matches no rule.",
     darknet="Nothing: Darknet skips comment lines; the directive suppresses nothing.",
     bad=NET + ("batch=64\n# dnlint: disable-next-line=DN999\nsubdivisions=24\n\n"
                "[convolutional]\nfilters=16\n"),
     good=NET + ("batch=64\n# dnlint: disable-next-line=DN103\n"
                 "subdivisions=24\n\n[convolutional]\n"
                 "filters=16\n"), reference="dnlint --list-rules")
rule("DN903", "malformed-directive", W,
     summary="A '# dnlint:' comment that dnlint cannot apply.",
     darknet="Nothing: Darknet skips comment lines, so the directive silently does nothing. "
             "Causes: an unknown action, no codes, 'enable' without an open 'disable', "
             "'disable-file' after the first section, or a syntax error code (syntax errors "
             "cannot be suppressed).",
     bad=NET + ("# dnlint: disable-file=DN103\nbatch=64\nsubdivisions=24\n\n[convolutional]\n"
                "filters=16\n"),
     good=("# dnlint: disable-file=DN103\n[net]\nwidth=32\nheight=32\nchannels=3\nbatch=64\n"
           "subdivisions=24\n\n[convolutional]\nfilters=16\n"),
     reference="docs/usage.md#suppressions-in-the-cfg")
rule("DN904", "trailing-directive", W,
     summary="A dnlint directive at the end of an option or section line.",
     darknet="read_cfg deletes all whitespace and keeps a trailing '# ...' as part of the value "
             "or section name, so the directive changes the network; dnlint does not apply it.",
     bad=NET + ("batch=64\nsubdivisions=24 # dnlint: disable-next-line=DN103\n\n[convolutional]\n"
                "filters=16\n"),
     good=NET + ("batch=64\n# dnlint: disable-next-line=DN103\nsubdivisions=24\n\n"
                 "[convolutional]\nfilters=16\n"),
     reference="§lines")
