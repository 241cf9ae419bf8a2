"""DN2xx: one option at a time: names, types, values, lists."""

from dnlint.rules import AB, CONV, HANK, NET, PJ, E, rule

rule("DN201", "unknown-option", E,
     summary="An option name that the section type does not read.",
     darknet="The option is ignored: an 'Unused field' line for layers, nothing at all for "
             "[net]. hank-ai's Darknet stops.",
     bad=NET + "\n[convolutional]\nfilter=16\n",
     good=NET + CONV, reference="L10", fix="unsafe")
rule("DN202", "option-not-in-dialect", E,
     summary="An option that only the other fork reads.",
     darknet="The fork that lacks it ignores it, so the network differs from the text.",
     bad=NET + CONV + "stride_x=2\n",
     good=NET + CONV + "stride=2\n", reference="§dialects",
     dialects=(PJ,))
rule("DN203", "not-a-number", E,
     summary="A numeric option whose value is not a number.",
     darknet="atoi/atof never fail: 'eight' silently reads as 0.",
     bad=NET + "\n[convolutional]\nfilters=eight\n",
     good=NET + "\n[convolutional]\nfilters=8\n", reference="L12",
     dialects=(PJ, AB))
rule("DN204", "trailing-garbage", E,
     summary="A number followed by other text.",
     darknet="atoi stops at the first non-digit: '3x' reads as 3, '1e3' as 1.",
     bad=NET + CONV + "size=3x\n",
     good=NET + CONV + "size=3\n", reference="L12",
     dialects=(PJ, AB))
rule("DN205", "float-for-int", E,
     summary="A fraction where Darknet reads an integer.",
     darknet="atoi('1.9') is 1: the fraction is silently dropped.",
     bad=NET + CONV + "stride=1.5\n",
     good=NET + CONV + "stride=1\n", reference="L12",
     levels="an error when the fraction changes the integer atoi reads ('3.2' reads 3); a "
            "warning when it is zero ('3.0' reads exactly 3).")
rule("DN206", "out-of-range", E,
     summary="A value outside the range Darknet can build.",
     darknet="Nothing checks it: zero or negative filters, sizes, strides and batches give empty "
             "or negative buffers, divisions by zero or out-of-bounds reads.",
     bad=NET + "\n[convolutional]\nfilters=0\n",
     good=NET + CONV, reference="S5, S7")
rule("DN207", "unknown-enum-value", E,
     summary="An activation, policy, cost type or other named value that Darknet does not know.",
     darknet="get_activation falls back to relu, get_policy to constant, get_cost_type to sse, "
             "with one line on stderr; iou_loss falls back silently. hank-ai's Darknet stops.",
     bad=NET + CONV + "activation=Leaky\n",
     good=NET + CONV + "activation=leaky\n",
     reference="L13, N11")
rule("DN208", "list-empty-item", E,
     summary="An empty item in a comma list.",
     darknet="Darknet counts commas and reads the empty item as 0 (for route layers: absolute "
             "layer 0). hank-ai's list reader skips it (a warning with --dialect hank).",
     bad=NET + CONV + "\n[convolutional]\nfilters=16\n\n[route]\nlayers=-1,,-2\n",
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[route]\nlayers=-1,-2\n", reference="R6",
     dialects=(PJ, AB), fix="safe",
     levels="an error for the original and AlexeyAB's Darknet, which read the empty item as "
            "0; a warning with --dialect hank, whose list reader skips it.")
rule("DN209", "list-trailing-comma", E,
     summary="A comma list ends with a comma.",
     darknet="Darknet reads one more item, from the empty string: 0. A route silently gains "
             "layer 0, a mask gains anchor 0, steps gain a step 0 (and then a missing scale "
             "crashes). hank-ai's list reader skips it (a warning with --dialect hank).",
     bad=NET + CONV + "\n[route]\nlayers=-1,\n",
     good=NET + CONV + "\n[route]\nlayers=-1\n", reference="R6",
     dialects=(PJ, AB), fix="safe",
     levels="an error for the original and AlexeyAB's Darknet, which read an extra 0 after "
            "the comma; a warning with --dialect hank, whose list reader skips it.")
rule("DN211", "missing-required-option", E,
     summary="A section lacks an option it cannot work without.",
     darknet="[route] without layers and [shortcut] without from crash (NULL pointer); others "
             "stop with an error.",
     bad=NET + CONV + "\n[route]\n",
     good=NET + CONV + "\n[route]\nlayers=-1\n", reference="R1, R2, R3")
rule("DN213", "hank-number-format", E,
     summary="A number hank-ai's Darknet cannot read ('1e-4', '+1').",
     darknet="hank-ai's reader accepts only '-.0123456789' in numbers and stops with 'should be "
             "numeric'; a value of those characters that std::stof cannot read ('-', '.') stops "
             "it while the file is read. Only reported with --dialect hank.",
     bad=NET + "learning_rate=1e-3\n\n[convolutional]\nfilters=16\n",
     good=NET + "learning_rate=0.001\n\n[convolutional]\nfilters=16\n", reference="L14",
     dialects=(HANK,))
rule("DN214", "hank-list-item", E,
     summary="A list item hank-ai's Darknet splits into several numbers, or cannot read.",
     darknet="hank-ai reads every run of digits as its own item: '1.5' in an int list is [1, 5], "
             "'1e-4' in a float list [1, -4]; a run it cannot read ('-') silently ends the list. "
             "Only reported with --dialect hank.",
     bad=NET + "policy=steps\nsteps=400,800\nscales=.1,.5e-1\n\n[convolutional]\nfilters=16\n",
     good=NET + ("policy=steps\nsteps=400,800\nscales=.1,.05\n\n"
                 "[convolutional]\nfilters=16\n"), reference="L15",
     dialects=(HANK,))
