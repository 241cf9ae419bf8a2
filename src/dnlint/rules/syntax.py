"""DN0xx: the file itself, its encoding, and how its lines split into sections and options."""

from dnlint.rules import AB, AUTO, CONV, HANK, NET, PJ, E, I, W, rule

rule("DN000", "internal-error", E,
     summary="dnlint itself failed on this file.",
     darknet="Not a Darknet behaviour: a bug in dnlint. The other files are still checked.",
     bad="(any file that triggers the bug)", good="(report the file to the dnlint maintainers)",
     examples="none")
rule("DN029", "unreadable-path", E,
     summary="A path given or found cannot be read: missing, unreadable, a dangling link, a "
             "directory where a file is needed, or not a regular file.",
     darknet="Not a Darknet behaviour: darknet stops with 'Couldn't open file'. dnlint reports "
             "the path, checks every other file, and exits 2 at the end.",
     bad="dnlint missing.cfg", good="dnlint model.cfg", examples="none")
rule("DN001", "empty-file", E,
     summary="The file is empty or holds only whitespace.",
     darknet="read_cfg returns no sections and parse_network_cfg stops with 'Config file has no "
             "sections'.",
     bad="",
     good=NET + CONV,
     reference="§structure")
rule("DN002", "option-before-section", E,
     summary="An option line comes before the first [section].",
     darknet="read_cfg hands the line to read_option with no current section: a NULL "
             "dereference (SIGSEGV).",
     bad="width=32\n[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV, reference="L1")
rule("DN003", "no-sections", E,
     summary="The file has no [section] header at all.",
     darknet="parse_network_cfg stops: 'Config file has no sections'.",
     bad="width=32\nheight=32\nchannels=3\n",
     good=NET + CONV, reference="§structure",
     dialects=(PJ, AB))
rule("DN004", "first-section-not-net", E,
     summary="The first section is not [net] or [network].",
     darknet="parse_network_cfg stops with 'First section must be [net] or [network]'.",
     bad="[convolutional]\nfilters=16\n",
     good=NET + CONV,
     reference="§structure")
rule("DN005", "net-without-layers", E,
     summary="[net] is not followed by any layer section.",
     darknet="The original reads the element before the layer array; AlexeyAB's divides by zero "
             "at the end of parsing (SIGFPE); hank-ai's stops.",
     bad=NET,
     good=NET + CONV,
     reference="S30")
rule("DN006", "missing-equals", E,
     summary="An option line has no '='.",
     darknet="read_option stores the line as a key with a NULL value. The getters treat it as "
             "missing, and because option_find returns the first match it hides any later line "
             "with the same key: 'batch_normalize' then 'batch_normalize=1' means no batch norm. "
             "hank-ai's reader ignores the line (the later key counts there).",
     bad=NET + CONV + "batch_normalize\nbatch_normalize=1\n",
     good=NET + CONV + "batch_normalize=1\n", reference="L6")
rule("DN007", "empty-value", E,
     summary="An option has nothing after '='.",
     darknet="read_option rejects the line ('Config file error ... could parse') and the default "
             "is used.",
     bad=NET + CONV + "size=\n",
     good=NET + CONV + "size=3\n", reference="L7")
rule("DN008", "empty-key", E,
     summary="An option has nothing before '='.",
     darknet="The option is stored under the empty key, which no getter asks for.",
     bad=NET + CONV + "=3\n",
     good=NET + CONV + "size=3\n", reference="L8")
rule("DN009", "duplicate-key", E,
     summary="The same key appears twice in one section.",
     darknet="option_find returns the first occurrence; the later one is ignored (only an "
             "'Unused field' line for layers, nothing at all for [net]). hank-ai's Darknet stops "
             "on any repeat. A repeat with the value the first line already has is a warning "
             "for the original and AlexeyAB's Darknet: nothing is misread, but an edit to the "
             "second line will be ignored.",
     bad=NET + "batch=64\nsubdivisions=16\nbatch=1\n\n[convolutional]\nfilters=16\n",
     good=NET + "batch=64\nsubdivisions=16\n# batch=1\n\n[convolutional]\nfilters=16\n",
     reference="L9",
     stock="yolo9000.cfg sets batch=1 and subdivisions=1 twice in [net]. Darknet reads the "
           "same values either way, but the next edit of the second copy is silently ignored.",
     fix="unsafe",
     levels="a warning for the original and AlexeyAB's Darknet when the repeat has the value "
            "the first line already has (option_find reads the first, which says the same); "
            "an error when the values differ, and for any repeat with --dialect hank "
            "(hank-ai's reader stops).")
rule("DN010", "whitespace-in-token", W,
     summary="Whitespace inside a key or a value.",
     darknet="strip() deletes every space and tab anywhere in the line, so 'fil ters = 2 56' "
             "means filters=256. hank-ai's reader ignores a line whose key has a blank (an "
             "error there) and keeps blanks inside values ('2 56' is not a number).",
     bad=NET + CONV + "activation=lea ky\n",
     good=NET + CONV + "activation=leaky\n", reference="L4",
     dialects=(PJ, AB),
     fix="safe",
     levels="a warning for the original and AlexeyAB's Darknet, whose strip() deletes the "
            "blank and reads what was meant; an error with --dialect hank, whose reader keeps "
            "it (a key with a blank is ignored, a value with one is not a number). A blank "
            "between two numbers is DN028.")
rule("DN011", "inline-comment-changes-value", E,
     summary="An inline comment ('#', ';' or '//' after the value) changes what Darknet reads.",
     darknet="Darknet has no inline comments: after strip() the comment is part of the value. A "
             "string such as 'leaky#x' is an unknown activation (relu is used); a comma in the "
             "comment adds list items that read as 0.",
     bad=NET + CONV + "activation=leaky # was relu\n",
     good=NET + CONV + "# was relu\nactivation=leaky\n", reference="L11",
     dialects=(PJ, AB), fix="safe",
     levels="always an error: the comment changes what Darknet reads (a string value, or a "
            "list's items). When the number before the comment reads the same, the finding is "
            "DN012, a warning.")
rule("DN012", "inline-comment", W,
     summary="An inline comment ('#', ';' or '//') after a number that Darknet reads correctly.",
     darknet="atoi/atof stop at the first character that is not part of the number, so "
             "'filters=18 # 255', 'batch=32 ;64' and 'filters=18//255' read 18, 32 and 18, but "
             "the comment is still part of the value. hank-ai's Darknet strips a '#' comment "
             "and stops on ';' or '//' (an error there). Text that is not a comment marker "
             "('angle=0y') stays an error (DN204).",
     bad=NET + "\n[convolutional]\nfilters=16 ###P6\n",
     good=NET + "\n[convolutional]\n###P6\nfilters=16\n", reference="L11",
     dialects=(PJ, AB),
     stock="AlexeyAB's p5/p6/p7 and csp cfgs mark layers with '###P6'-style comments. The "
           "value reads right today, but the comment is part of it: a comma typed into it adds "
           "list items, and the original Darknet reads a '#' after a string value as text.",
     fix="safe",
     levels="always a warning: atoi/atof read exactly the number before the '#', ';' or '//'. "
            "When the comment changes what is read it is DN011 (an error); text after a "
            "number that is not a comment marker ('0y', '3.2' for an int) is DN204/DN205 "
            "(errors).")
rule("DN013", "crlf-line-endings", W,
     summary="Lines end in CRLF (Windows line endings).",
     darknet="The original Darknet keeps the '\\r': '[net]\\r' is not [net] (the run stops) and "
             "string values gain a '\\r' (an unknown activation becomes relu). AlexeyAB's and "
             "hank-ai's strip it. An error with --dialect pjreddie, a portability note (info) "
             "for the forks that strip it.",
     bad=("[net]\\r\nwidth=32\\r\nheight=32\\r\nchannels=3\\r\n\\r\n[convolutional]\\r\n"
          "filters=16\\r\n"),
     good=NET + CONV, reference="L2",
     dialects=(PJ, AB),
     fix="safe",
     levels="an error for the original Darknet, which keeps the '\\r' (a header or a string "
            "value no longer matches); a note (info) for AlexeyAB's and hank-ai's, which "
            "strip it.")
rule("DN014", "utf8-bom", E,
     summary="The file starts with a UTF-8 byte-order mark.",
     darknet="The BOM is not whitespace to strip(), so the first line is an option line before "
             "any section: SIGSEGV.",
     bad="\\xef\\xbb\\xbf[net]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV, reference="L1", fix="safe")
rule("DN015", "utf16-file", E,
     summary="The file is UTF-16 encoded.",
     darknet="Darknet reads bytes: every other byte is NUL, so no line parses.",
     bad="\\xff\\xfe[\\x00n\\x00e\\x00t\\x00]\\x00\\n\\x00",
     good=NET + CONV)
rule("DN016", "non-utf8", W,
     summary="A line holds bytes that are not valid UTF-8.",
     darknet="Darknet compares bytes, so such a key or value never matches anything it knows.",
     bad=NET + CONV + "activation=le\\xe4ky\n",
     good=NET + CONV + "activation=leaky\n")
rule("DN017", "nul-byte", E,
     summary="The file contains a NUL byte.",
     darknet="fgetl ends the string at the NUL and glues the next line onto it: 'filters=4<NUL>x' "
             "+ 'size=3' becomes the single option 'filters=4size=3'.",
     bad=NET + "\n[convolutional]\nfilters=16\\x00x\nsize=3\n",
     good=NET + CONV + "size=3\n", reference="§lines",
     dialects=(PJ, AB))
rule("DN018", "not-a-cfg", E,
     summary="The file is an HTML page or a Git LFS pointer, not a cfg.",
     darknet="Darknet reads the first line as an option before any section and crashes.",
     bad="<!DOCTYPE html>\n<html>\n",
     good=NET + CONV)
rule("DN019", "malformed-section-header", E,
     summary="A section header is malformed: no ']', '[]', or text after ']'.",
     darknet="read_cfg takes the whole stripped line as the section type, so '[yolo] # head' is "
             "the type '[yolo]#head', which is unknown: an all-zero layer. hank-ai's reader ends "
             "the name at the last ']' (text after it is only a warning there) and ignores a "
             "line without ']'.",
     bad=NET + CONV + "\n[maxpool] # downsample\nsize=2\nstride=2\n",
     good=NET + CONV + "\n# downsample\n[maxpool]\nsize=2\nstride=2\n", reference="L3", fix="safe",
     levels="an error for the original and AlexeyAB's Darknet, which take the whole line as "
            "the section name; with --dialect hank text after ']' is a warning (hank-ai's "
            "reader ends the name at ']') and a header without ']' an error.")
rule("DN020", "unknown-section", E,
     summary="A section name that no Darknet knows.",
     darknet="parse_network_cfg prints 'Type not recognized' and inserts an all-zero "
             "convolutional layer; the next layers receive shape 0. In AlexeyAB's, when no "
             "layer is then wider and taller than 1, the parse ends in a division by zero "
             "(SIGFPE), which the error names.",
     bad=NET + "\n[convolution]\nfilters=16\n",
     good=NET + CONV, reference="L5")
rule("DN021", "section-not-in-dialect", E,
     summary="A section type that exists only in the other fork.",
     darknet="The fork that lacks it treats it as an unknown type (all-zero layer); hank-ai's "
             "stops.",
     bad=NET + CONV + "\n[convolutional]\nfilters=16\n\n[sam]\nfrom=-2\n",
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[shortcut]\nfrom=-2\n",
     reference="§section-names",
     dialects=(PJ,))
rule("DN022", "repeated-net-section", E,
     summary="A second [net]/[network] section.",
     darknet="Only the first section is the network; a later [net] is an unknown layer type "
             "(all-zero layer).",
     bad=NET + CONV + "\n[net]\nheight=32\n",
     good=NET + CONV,
     reference="L5")
rule("DN023", "binary-file", E,
     summary="The file is binary data (for example a .weights file), not a text cfg.",
     darknet="Darknet reads garbage lines and crashes or builds nonsense.",
     bad=("\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
          "\\x00\\x00\\x80\\x3f"),
     good=NET + CONV)
rule("DN024", "whitespace-in-section-header", W,
     summary="Whitespace inside a section header, e.g. '[ net ]'.",
     darknet="The original and AlexeyAB's delete it; hank-ai's keeps it and rejects the name "
             "(reported as an unknown section with --dialect hank).",
     bad="[ net ]\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV, reference="§hank-lexer",
     dialects=(PJ, AB),
     levels="a warning for the original and AlexeyAB's Darknet, whose strip() deletes the "
            "blank; an error with --dialect hank, which keeps it and rejects the name.")
rule("DN025", "mixed-dialects", W,
     summary="The cfg uses features of both forks.",
     darknet="Each fork treats the other's sections as unknown (all-zero layers) and ignores the "
             "other's options; no Darknet builds this file as written.",
     bad=NET + CONV + ("\n[convolutional]\nfilters=16\n\n[sam]\nfrom=-2\n\n[deconvolutional]\n"
                       "filters=8\n"),
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[sam]\nfrom=-2\n", reference="§dialects",
     dialects=(AUTO,))
rule("DN026", "dialect-ambiguous", I,
     summary="Nothing says which fork the cfg is for, and the forks build it differently.",
     darknet="[batchnorm], [rnn], [crnn], [gru] and [lstm] differ between the forks in weights "
             "size or layout.",
     bad=NET + CONV + "\n[batchnorm]\n",
     good=NET + CONV + "batch_normalize=1\n", reference="W10, §dialects",
     dialects=(AUTO,))
rule("DN027", "hank-empty-net", E,
     summary="[net] has no options (hank-ai's Darknet).",
     darknet="hank-ai's reader lets the next header replace an empty first section, so the "
             "first layer takes the place of [net] and Darknet stops: 'expected to find [net] "
             "or [network]'.",
     bad="[net]\n[convolutional]\nfilters=16\n",
     good=NET + CONV,
     reference="L16",
     dialects=(HANK,))
rule("DN028", "glued-numbers", E,
     summary="Two numbers separated only by whitespace.",
     darknet="strip() deletes the whitespace, so '61,45 61,45' reads as 61, 4561, 45: one "
             "number instead of two, and every later list item shifts. hank-ai's list reader "
             "takes the blank as a separator (a warning with --dialect hank).",
     bad=NET + ("max_batches=1000\npolicy=steps\nsteps=400 800\nscales=.1,.1\n\n[convolutional]\n"
                "filters=16\n"),
     good=NET + ("max_batches=1000\npolicy=steps\nsteps=400,800\nscales=.1,.1\n\n"
                 "[convolutional]\nfilters=16\n"),
     reference="L4",
     levels="an error for the original and AlexeyAB's Darknet, whose strip() glues the "
            "numbers into one; a warning with --dialect hank, whose list reader takes the "
            "blank as a separator.")
rule("DN035", "slash-comment", W,
     summary="A line that starts with '//' used as a comment.",
     darknet="Darknet has no '//' comments. The original and AlexeyAB's store the line as an "
             "option whose key starts with '//', which no getter asks for (both print 'Unused "
             "field' for a layer's line), so nothing is misread; hank-ai's skips a line that "
             "does not read as key=value. '//size=5' without blanks is a key to hank-ai's "
             "Darknet, which stops on the unused line (DN201 with --dialect hank). Before the "
             "first section the line is an option without a section (DN002).",
     bad=NET + CONV + "// size=5\nsize=3\n",
     good=NET + CONV + "# size=5\nsize=3\n", reference="L11",
     fix="safe",
     levels="always a warning where it is reported: the line is ignored, as its writer "
            "meant. '//key=value' without blanks is an unused option hank-ai's Darknet stops "
            "on (DN201, an error with --dialect hank), and any line before the first section "
            "is DN002.")
