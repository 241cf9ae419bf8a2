"""DN9xx: dnlint's own directives (``# dnlint: ...`` comment lines)."""

from dnlint.rules import W, rule

rule("DN901", "unused-suppression", W,
     summary="A suppression directive suppresses nothing.",
     darknet="Nothing: Darknet skips comment lines. A directive left behind after the problem was "
             "fixed hides the next real problem of that kind on that line.",
     bad="# dnlint: disable-next-line=DN103\n[net]\nbatch=64\nsubdivisions=16",
     good="[net]\nbatch=64\nsubdivisions=16", reference="docs/usage.md#suppressions")
rule("DN902", "unknown-code-in-directive", W,
     summary="A directive names a code or prefix that matches no rule.",
     darknet="Nothing: Darknet skips comment lines; the directive suppresses nothing.",
     bad="# dnlint: disable-next-line=DN999\nbatch=64",
     good="# dnlint: disable-next-line=DN103\nbatch=64", reference="dnlint --list-rules")
rule("DN903", "malformed-directive", W,
     summary="A '# dnlint:' comment that dnlint cannot apply.",
     darknet="Nothing: Darknet skips comment lines, so the directive silently does nothing. "
             "Causes: an unknown action, no codes, 'enable' without an open 'disable', "
             "'disable-file' after the first section, or a syntax error code (syntax errors "
             "cannot be suppressed).",
     bad="[net]\n# dnlint: disable-file=DN103\nbatch=64\nsubdivisions=24",
     good="# dnlint: disable-file=DN103\n[net]\nbatch=64\nsubdivisions=24",
     reference="docs/usage.md#suppressions")
rule("DN904", "trailing-directive", W,
     summary="A dnlint directive at the end of an option or section line.",
     darknet="read_cfg deletes all whitespace and keeps a trailing '# ...' as part of the value "
             "or section name, so the directive changes the network; dnlint does not apply it.",
     bad="[net]\nbatch=64\nsubdivisions=24 # dnlint: disable-next-line=DN103",
     good="[net]\nbatch=64\n# dnlint: disable-next-line=DN103\nsubdivisions=24",
     reference="darknet-reference §1.1")
