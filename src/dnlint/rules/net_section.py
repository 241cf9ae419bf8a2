"""DN1xx: the [net] section."""

from dnlint.rules import AB, CONV, HANK, NET, PJ, E, W, rule

rule("DN101", "subdivisions-not-positive", E,
     summary="subdivisions is 0 or negative.",
     darknet="parse_net_options divides batch by subdivisions: SIGFPE for 0, a negative "
             "mini-batch otherwise.",
     bad=NET + "batch=64\nsubdivisions=0\n\n[convolutional]\nfilters=16\n",
     good=NET + "batch=64\nsubdivisions=16\n\n[convolutional]\nfilters=16\n",
     reference="N1")
rule("DN102", "subdivisions-over-batch", E,
     summary="subdivisions is larger than batch.",
     darknet="The mini-batch batch/subdivisions is 0: the original Darknet allocates empty "
             "buffers (an error); AlexeyAB's and hank-ai's clamp it to 1 and train on "
             "subdivisions images per iteration (a warning).",
     bad=NET + "batch=1\nsubdivisions=16\n\n[convolutional]\nfilters=16\n",
     good=NET + "batch=64\nsubdivisions=16\n\n[convolutional]\nfilters=16\n",
     reference="N2",
     levels="an error for the original Darknet (the mini-batch is 0 and every buffer empty); "
            "a warning for AlexeyAB's and hank-ai's, which clamp the mini-batch to 1 and "
            "train on fewer images per iteration than batch says.")
rule("DN103", "batch-not-divisible", W,
     summary="batch is not a multiple of subdivisions.",
     darknet="The mini-batch is floored: batch=64, subdivisions=24 trains on 48 images a batch.",
     bad=NET + "batch=64\nsubdivisions=24\n\n[convolutional]\nfilters=16\n",
     good=NET + "batch=64\nsubdivisions=16\n\n[convolutional]\nfilters=16\n",
     reference="N2")
rule("DN104", "time-steps-not-positive", E,
     summary="time_steps <= 0.",
     darknet="The original Darknet's batch becomes 0 or negative, and recurrent layers divide by "
             "time_steps (SIGFPE). AlexeyAB's and hank-ai's silently use 1 (a warning there).",
     bad=NET + "time_steps=0\n\n[convolutional]\nfilters=16\n",
     good=NET + "time_steps=1\n\n[convolutional]\nfilters=16\n", reference="N3",
     levels="an error for the original Darknet (batch becomes 0 or negative, SIGFPE); a "
            "warning for AlexeyAB's and hank-ai's, which silently use 1.")
rule("DN105", "inputs-mismatch", E,
     summary="inputs disagrees with width*height*channels.",
     darknet="Nothing checks it: the flat and image views of the input disagree and layers read "
             "out of bounds.",
     bad=NET + "inputs=1024\n\n[convolutional]\nfilters=16\n",
     good=NET + "inputs=3072\n\n[convolutional]\nfilters=16\n", reference="N4")
rule("DN106", "no-input-size", E,
     summary="Neither inputs nor all of width, height and channels.",
     darknet="parse_network_cfg stops with 'No input parameters supplied'.",
     bad="[net]\nwidth=32\nheight=32\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV,
     reference="N5")
rule("DN107", "crop-ratio-zero-width", E,
     summary="width=0 while crop settings use it (original Darknet).",
     darknet="The default max_ratio/min_ratio are max_crop/width and min_crop/width in float: "
             "NaN or inf, which the data augmentation then uses.",
     bad="[net]\ninputs=784\nmax_crop=32\n\n[connected]\noutput=10\n",
     good="[net]\ninputs=784\n\n[connected]\noutput=10\n", reference="N6",
     dialects=(PJ,))
rule("DN108", "policy-missing-option", E,
     summary="The learning-rate policy lacks an option it needs.",
     darknet="policy=steps without steps or scales stops with an error.",
     bad=NET + "policy=steps\nsteps=400\n\n[convolutional]\nfilters=16\n",
     good=NET + "policy=steps\nsteps=400\nscales=.1\n\n[convolutional]\nfilters=16\n",
     reference="§net-policies")
rule("DN109", "steps-scales-count", E,
     summary="steps and scales have different lengths.",
     darknet="Fewer scales: Darknet reads the missing ones through a NULL pointer (SIGSEGV); "
             "hank-ai's pads with 0, which stops learning. More scales: ignored.",
     bad=NET + "policy=steps\nsteps=400,800\nscales=.1\n\n[convolutional]\nfilters=16\n",
     good=NET + ("policy=steps\nsteps=400,800\nscales=.1,.1\n\n"
                 "[convolutional]\nfilters=16\n"), reference="N7, N8, N9")
rule("DN110", "steps-order", W,
     summary="steps do not increase, or lie after max_batches.",
     darknet="Accepted silently; a step that is never reached or comes out of order does "
             "nothing.",
     bad=NET + ("max_batches=1000\npolicy=steps\nsteps=800,400\nscales=.1,.1\n\n[convolutional]\n"
                "filters=16\n"),
     good=NET + ("max_batches=1000\npolicy=steps\nsteps=400,800\nscales=.1,.1\n\n"
                 "[convolutional]\nfilters=16\n"),
     reference="N10")
rule("DN111", "contrastive-mini-batch", E,
     summary="contrastive=1 with a mini-batch below 2 (AlexeyAB's).",
     darknet="AlexeyAB's Darknet stops with an error.",
     bad=NET + "batch=1\nsubdivisions=1\ncontrastive=1\n\n[convolutional]\nfilters=16\n",
     good=NET + ("batch=64\nsubdivisions=8\ncontrastive=1\n\n[convolutional]\n"
                 "filters=16\n"), reference="N12",
     dialects=(AB, HANK))
rule("DN112", "option-ignored-by-settings", W,
     summary="A [net] option that the chosen policy (or adam=0) never reads.",
     darknet="parse_net_options reads step/scale, steps/scales, gamma only for their policies, "
             "and B1/B2/eps only with adam=1; otherwise the value is ignored without a word. "
             "hank-ai's Darknet stops on any unused key (an error with --dialect hank).",
     bad=NET + ("policy=steps\nsteps=400,800\nscales=.1,.1\ngamma=0.9\n\n[convolutional]\n"
                "filters=16\n"),
     good=NET + ("policy=steps\nsteps=400,800\nscales=.1,.1\n\n"
                 "[convolutional]\nfilters=16\n"), reference="§net-policies, L10",
     levels="a warning: no code path reads the option under this policy; an error with "
            "--dialect hank, which stops on a line it does not use.")
rule("DN113", "whole-batch-in-one-pass", W,
     summary="batch > 1 with no subdivisions: the whole batch goes through the network at once.",
     darknet="parse_net_options reads subdivisions with a default of 1, so the mini-batch is the "
             "whole batch: every layer's outputs and deltas are allocated for all of its images "
             "(the usual cause of running out of GPU memory). Typically subdivisions was "
             "commented out with the '# Testing' lines.",
     bad=NET + "batch=64\n#subdivisions=16\n\n[convolutional]\nfilters=16\n",
     good=NET + "batch=64\nsubdivisions=16\n\n[convolutional]\nfilters=16\n",
     reference="§net-defaults")
rule("DN114", "step-never-reached", E,
     summary="A negative step in the original Darknet: it and every later step never apply.",
     darknet="get_current_rate compares each step with the current iteration, a size_t in the "
             "original Darknet: a negative step becomes a huge unsigned number, so that step "
             "and every later one never apply and the learning rate stays where it was. "
             "AlexeyAB's and hank-ai's compare ints, where steps=-1,100 with scales=.1,10 is a "
             "deliberate warm-up (their yolov2-tiny cfgs), so nothing is reported there.",
     bad=NET + ("max_batches=1000\npolicy=steps\nsteps=-400,800\nscales=.1,.1\n\n"
                "[convolutional]\nfilters=16\n"),
     good=NET + ("max_batches=1000\npolicy=steps\nsteps=400,800\nscales=.1,.1\n\n"
                 "[convolutional]\nfilters=16\n"),
     reference="§net-defaults", dialects=(PJ,),
     stock="the original's yolov2-tiny-voc.cfg has steps=-1,100,20000,30000, AlexeyAB's warm-up "
           "idiom: under the original Darknet its learning rate never decays (an error).")
