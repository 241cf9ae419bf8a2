"""DN3xx: layer references, shapes and the arithmetic of the shape pass."""

from dnlint.rules import AB, CONV, HANK, NET, PJ, E, I, W, rule

rule("DN302", "reference-out-of-range", E,
     summary="A layer reference that points at the layer itself, forward, or before layer 0.",
     darknet="No bounds check: a later layer is not built yet (all shapes 0); a negative index "
             "reads outside the layer array (undefined behaviour).",
     bad=NET + CONV + "\n[route]\nlayers=5\n",
     good=NET + CONV + "\n[route]\nlayers=-1\n", reference="R4, R5")
rule("DN304", "share-index-mismatch", E,
     summary="share_index points at a layer whose weights cannot be shared.",
     darknet="AlexeyAB's Darknet stops: the shared layer must have the same size, channels and "
             "filters.",
     bad=NET + CONV + ("\n[convolutional]\nfilters=16\nsize=3\npad=1\n\n[convolutional]\n"
                       "filters=16\nshare_index=-1\n"),
     good=NET + CONV + ("\n[convolutional]\nfilters=16\nsize=3\npad=1\n\n"
                        "[convolutional]\nfilters=16\nsize=3\npad=1\n"
                        "share_index=-1\n"), reference="R8",
     dialects=(AB, HANK))
rule("DN305", "division-by-zero", E,
     summary="A shape computation divides by zero.",
     darknet="Integer division by zero: the process dies of SIGFPE.",
     bad=NET + CONV + "\n[maxpool]\nsize=2\nstride=0\n",
     good=NET + CONV + "\n[maxpool]\nsize=2\nstride=2\n", reference="S5")
rule("DN306", "needs-image-input", E,
     summary="A spatial layer receives a flat (or zero-sized) input.",
     darknet="parse_network_cfg stops with 'Layer before convolutional layer must output image.'",
     bad="[net]\ninputs=256\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV, reference="§building")
rule("DN307", "output-collapses", E,
     summary="A layer's output width or height is 0 or less.",
     darknet="Nothing checks it: zero-sized or negative buffers, out-of-bounds reads. C "
             "division truncates toward zero, which can hide a negative numerator.",
     bad="[net]\nwidth=4\nheight=4\nchannels=3\n\n[convolutional]\nfilters=16\nsize=7\n",
     good=("[net]\nwidth=4\nheight=4\nchannels=3\n\n[convolutional]\n"
           "filters=16\nsize=7\npad=1\n"), reference="S6")
rule("DN308", "groups-zero", E,
     summary="groups=0 in a convolution (original Darknet).",
     darknet="make_convolutional_layer divides channels by groups: SIGFPE. AlexeyAB's treats 0 "
             "as 1.",
     bad=NET + CONV + "groups=0\n",
     good=NET + CONV + "groups=1\n", reference="S3",
     dialects=(PJ,))
rule("DN309", "groups-not-divisible", E,
     summary="groups does not divide the input channels or the filters.",
     darknet="The channel count per group is floored silently; weights and shapes no longer "
             "match the intent.",
     bad=NET + "\n[convolutional]\nfilters=32\ngroups=3\n",
     good=NET + "\n[convolutional]\nfilters=33\ngroups=3\n",
     reference="S4")
rule("DN310", "even-size-with-pad", W,
     summary="An even kernel size with pad=1.",
     darknet="pad=1 means size/2 pixels on each side, so a 2x2 stride-1 conv grows the map by "
             "one pixel.",
     bad=NET + CONV + "size=2\npad=1\n",
     good=NET + CONV + "size=3\npad=1\n",
     reference="S9")
rule("DN311", "dilation-shape-mismatch", E,
     summary="dilation > 1 with a padding that does not keep the size.",
     darknet="AlexeyAB's Darknet declares the output shape without the dilation but computes "
             "with it: buffer sizes disagree.",
     bad=NET + CONV + "size=3\ndilation=2\npadding=2\n",
     good=NET + CONV + "size=3\ndilation=2\npad=1\n", reference="S8",
     dialects=(AB, HANK))
rule("DN312", "int-overflow", E,
     summary="A size or count exceeds what a 32-bit C int holds.",
     darknet="Darknet computes shapes and counts in int: the value wraps around, and every "
             "size after it is garbage (dnlint builds no layer after the first overflow). When "
             "[net]'s width*height*channels wraps, the error is on [net]'s size line "
             "(parse_net's h*w*c is where Darknet's arithmetic first goes wrong) and the "
             "layers' overflows that follow are its consequences.",
     bad=("[net]\nwidth=416\nheight=416\nchannels=3\n\n[convolutional]\nfilters=64\n\n"
          "[connected]\noutput=100000\n"),
     good=("[net]\nwidth=416\nheight=416\nchannels=3\n\n[convolutional]\n"
           "filters=64\n\n[connected]\noutput=10\n"), reference="§arithmetic",
     levels="always an error. When [net]'s width*height*channels is the first value to "
            "overflow, the error is on [net]'s size line and the layers' overflows that "
            "follow are folded into one DN390 note.")
rule("DN313", "no-spatial-layer", E,
     summary="No layer is wider and taller than 1 as its constructor stores l.w and l.h "
             "(AlexeyAB's and hank-ai's).",
     darknet="parse_network_cfg_custom divides by the number of layers with l.w > 1 and "
             "l.h > 1 to print an average: SIGFPE for vector-only networks such as AlexeyAB's "
             "own rnn.cfg. A layer's own l.w/l.h is not always its input: [connected] stores "
             "1x1, [rnn], [lstm], [gru], [cost] and a [dropout] without dropblock 0x0, a "
             "[route] its first input's own size, so [net] 8x8 followed only by [connected] "
             "layers dies too.",
     bad="[net]\ninputs=256\n\n[connected]\noutput=10\n",
     good=NET + CONV + "\n[connected]\noutput=10\n", reference="S29",
     dialects=(AB, HANK),
     levels="always an error for AlexeyAB's and hank-ai's Darknet (SIGFPE); the original "
            "Darknet has no such average and is not checked.")
rule("DN314", "deform-options", E,
     summary="Conflicting sway/rotate/stretch/stretch_sway options.",
     darknet="AlexeyAB's parse_convolutional stops with an error when more than one is set, or "
             "any with size=1.",
     bad=NET + CONV + "size=3\nsway=1\nrotate=1\n",
     good=NET + CONV + "size=3\nsway=1\n",
     reference="S35",
     dialects=(AB, HANK))

# --- spatial and structural layer types (DN315-DN369) ---------------------------------------
rule("DN315", "route-size-mismatch", E,
     summary="A [route] joins layers whose widths or heights differ.",
     darknet="parse_route sets the route's out_w, out_h and out_c to 0 but keeps outputs as the "
             "sum: image layers after it stop or misread; only flat layers can use it.",
     bad=NET + CONV + "\n[maxpool]\nsize=2\nstride=2\n\n[route]\nlayers=-1,-2\n",
     good=NET + CONV + ("\n[maxpool]\nsize=2\nstride=2\n\n[upsample]\nstride=2\n"
                        "\n[route]\nlayers=-1,-3\n"), reference="S1",
     levels="an error when the layer after the route needs an image (it receives 0x0x0); a "
            "warning when it reads the route as a flat vector (connected, softmax, ...), "
            "which works.")
rule("DN316", "route-groups", E,
     summary="[route] groups/group_id that do not split the inputs cleanly (AlexeyAB's).",
     darknet="groups=0 divides by zero; group_id outside [0, groups) reads a slice that does not "
             "exist; channels not divisible by groups are floored.",
     bad=NET + CONV + "\n[route]\nlayers=-1\ngroups=2\ngroup_id=2\n",
     good=NET + CONV + "\n[route]\nlayers=-1\ngroups=2\ngroup_id=1\n", reference="S2",
     dialects=(AB, HANK))
rule("DN317", "shortcut-ratio", E,
     summary="An original-Darknet [shortcut] whose from-layer is not an integer scale of its "
             "input.",
     darknet="shortcut_cpu asserts W1/W2 = H1/H2 and W2/W1 = H2/H1 (C division) at the first "
             "forward pass; a zero side divides by zero.",
     bad=("[net]\nwidth=48\nheight=32\nchannels=3\n\n[convolutional]\nfilters=16\n\n"
          "[convolutional]\nfilters=16\nsize=17\n\n[shortcut]\nfrom=-2\n"),
     good=("[net]\nwidth=48\nheight=32\nchannels=3\n\n[convolutional]\n"
           "filters=16\n\n[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n"), reference="S11",
     dialects=(PJ,))
rule("DN318", "shortcut-size-mismatch", E,
     summary="A [shortcut] from-layer with another width or height (AlexeyAB's, hank-ai's).",
     darknet="parse_shortcut asserts equal w and h: Makefile builds abort, release builds add "
             "flat-indexed garbage. The original Darknet's ResNet cfgs fail this way.",
     bad=NET + CONV + "\n[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n",
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[shortcut]\nfrom=-2\n",
     reference="S12",
     dialects=(AB, HANK))
rule("DN319", "shortcut-channel-mismatch", I,
     summary="A [shortcut] adds a layer with a different channel count.",
     darknet="Accepted: the element-wise sum runs over the smaller tensor, the extra channels "
             "pass through unchanged. Some stock cfgs (PRN, ENet) do this on purpose.",
     bad=NET + CONV + "\n[convolutional]\nfilters=32\n\n[shortcut]\nfrom=-2\n",
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[shortcut]\nfrom=-2\n",
     reference="S12",
     dialects=(AB, HANK))
rule("DN320", "shortcut-weights-normalization", E,
     summary="weights_type is set but weights_normalization is missing or none (AlexeyAB's).",
     darknet="parse_shortcut's check accepts only relu, avg_relu or softmax once weights_type is "
             "not none, so even the default stops with 'Incorrect weights_normalization'.",
     bad=NET + CONV + ("\n[convolutional]\nfilters=16\n\n[shortcut]\nfrom=-2\n"
                       "weights_type=per_feature\n"),
     good=NET + CONV + ("\n[convolutional]\nfilters=16\n\n[shortcut]\nfrom=-2\n"
                        "weights_type=per_feature\nweights_normalization=softmax\n"),
     reference="S13",
     dialects=(AB,))
rule("DN321", "scale-shape-mismatch", E,
     summary="[scale_channels] or [sam] shapes that its asserts reject.",
     darknet="make_scale_channels_layer/make_sam_layer only assert the shapes: Makefile builds "
             "abort, release builds read out of bounds.",
     bad=NET + CONV + "\n[convolutional]\nfilters=16\n\n[scale_channels]\nfrom=-2\n",
     good=NET + CONV + "\n[avgpool]\n\n[scale_channels]\nfrom=-2\n", reference="S14",
     dialects=(AB, HANK))
rule("DN322", "unsupported-activation", W,
     summary="swish or mish in [scale_channels] or [sam].",
     darknet="AlexeyAB's Darknet prints that the layer does not support it and runs without the "
             "buffers these activations need; hank-ai's stops.",
     bad=NET + CONV + "\n[convolutional]\nfilters=16\n\n[sam]\nfrom=-2\nactivation=mish\n",
     good=NET + CONV + "\n[convolutional]\nfilters=16\n\n[sam]\nfrom=-2\nactivation=logistic\n",
     reference="§layer-scale_channels",
     dialects=(AB, HANK),
     levels="a warning for AlexeyAB's Darknet, which says so and runs on; an error with "
            "--dialect hank, which stops.")
rule("DN323", "softmax-groups", E,
     summary="[softmax] groups that do not divide its inputs.",
     darknet="make_softmax_layer asserts inputs % groups == 0 (groups=0: SIGFPE).",
     bad=NET + CONV + "\n[connected]\noutput=10\n\n[softmax]\ngroups=3\n",
     good=NET + CONV + "\n[connected]\noutput=10\n\n[softmax]\ngroups=2\n", reference="S20")
rule("DN324", "pass-through-first", E,
     summary="[dropout] or [empty] as the first layer.",
     darknet="These layers reuse the previous layer's buffers: as layer 0 they read layer -1 "
             "(undefined behaviour, a crash at the first forward pass).",
     bad=NET + "\n[dropout]\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV + "\n[dropout]\n",
     reference="S21")
rule("DN325", "dropout-probability", E,
     summary="A [dropout] probability outside [0, 1).",
     darknet="scale = 1/(1 - probability): infinite at 1, negative or meaningless outside.",
     bad=NET + CONV + "\n[dropout]\nprobability=1\n",
     good=NET + CONV + "\n[dropout]\nprobability=.5\n", reference="S22")
rule("DN326", "dropblock-needs-image", E,
     summary="dropblock on a flat (or zero-sized) input (AlexeyAB's).",
     darknet="make_dropout_layer stops with 'DropBlock - there must be positive values'.",
     bad="[net]\ninputs=256\n\n[connected]\noutput=16\n\n[softmax]\n\n[dropout]\ndropblock=1\n",
     good=NET + CONV + "\n[dropout]\ndropblock=1\n", reference="S34",
     dialects=(AB, HANK))
rule("DN327", "crop-too-large", E,
     summary="A [crop] larger than its input.",
     darknet="Nothing checks it: the crop offsets go negative and the layer reads out of "
             "bounds.",
     bad=NET + "\n[crop]\ncrop_width=64\ncrop_height=24\n\n[convolutional]\nfilters=16\n",
     good=NET + ("\n[crop]\ncrop_width=24\ncrop_height=24\n\n[convolutional]\n"
                 "filters=16\n"), reference="S23",
     dialects=(PJ, AB))
rule("DN328", "stride-not-divisible", W,
     summary="[reorg]/[reorg3d] or a down-sampling [upsample] on sizes the stride does not divide.",
     darknet="The output size is floored silently; the leftover rows and columns are dropped "
             "(or, reversed, channels are lost).",
     bad=("[net]\nwidth=30\nheight=30\nchannels=3\n\n[convolutional]\nfilters=16\n\n[reorg]\n"
          "stride=4\n"),
     good=("[net]\nwidth=30\nheight=30\nchannels=3\n\n[convolutional]\n"
           "filters=16\n\n[reorg]\nstride=2\n"), reference="S24",
     dialects=(PJ, AB))
rule("DN329", "reference-to-antialiased", E,
     summary="A reference to a layer with antialiasing (AlexeyAB's).",
     darknet="The referenced layer's out_w/out_h/outputs are the unblurred ones, but its buffer "
             "holds the blurred, strided data: the referencing layer misreads it.",
     bad=NET + CONV + ("stride=2\nantialiasing=1\n\n[convolutional]\nfilters=16\n\n[route]\n"
                       "layers=-2\n"),
     good=NET + CONV + ("stride=2\n\n[convolutional]\nfilters=16\n\n[route]\n"
                        "layers=-2\n"), reference="S28",
     dialects=(AB, HANK))
rule("DN330", "local-pad-mismatch", E,
     summary="[local] with pad != 0 and size != 2*pad + 1.",
     darknet="The shape uses pad only as a flag (one pixel), the computation uses it as the "
             "padding amount: declared and computed shapes disagree.",
     bad=NET + "\n[local]\nfilters=8\nsize=3\npad=2\n",
     good=NET + "\n[local]\nfilters=8\nsize=3\npad=1\n", reference="S10",
     dialects=(PJ, AB))

# --- recurrent layers and the remaining types (DN370-DN399) ---------------------------------
rule("DN370", "crnn-transposed", W,
     summary="[crnn] on a non-square input in the original Darknet.",
     darknet="parse_crnn passes width and height to make_crnn_layer in swapped order: a 6x4 "
             "input comes out 4x6.",
     bad="[net]\nwidth=64\nheight=32\nchannels=3\n\n[crnn]\noutput_filters=16\nhidden_filters=16\n",
     good=NET + "\n[crnn]\noutput_filters=16\nhidden_filters=16\n", reference="S25",
     dialects=(PJ,))
rule("DN371", "crnn-size-not-preserved", E,
     summary="[crnn] convolutions that do not keep the spatial size (AlexeyAB's).",
     darknet="make_crnn_layer asserts that the input convolution's outputs equal the output "
             "convolution's inputs, which holds only for stride 1 and padding size/2. The "
             "defaults (size=3, pad=0) fail the assert.",
     bad=NET + "\n[crnn]\nsize=3\noutput=16\nhidden=16\n",
     good=NET + "\n[crnn]\nsize=3\npad=1\noutput=16\nhidden=16\n", reference="S26",
     dialects=(AB, HANK))
rule("DN372", "conv-lstm-size-not-preserved", E,
     summary="[conv_lstm] convolutions that do not keep the spatial size.",
     darknet="The state (W, V) convolutions run on the output of the previous step, so stride "
             "must be 1 and the padding size/2. Nothing checks it: the buffers disagree.",
     bad=NET + "\n[conv_lstm]\nsize=3\noutput=16\n",
     good=NET + "\n[conv_lstm]\nsize=3\npad=1\noutput=16\n",
     reference="S27",
     dialects=(AB,))
rule("DN373", "rnn-hidden-default", W,
     summary="[rnn] without 'hidden' in AlexeyAB's Darknet.",
     darknet="AlexeyAB's parse_rnn reads hidden with default 1: the state is a single number. "
             "An original-Darknet rnn cfg gets this silently.",
     bad=NET + CONV + "\n[rnn]\noutput=64\n",
     good=NET + CONV + "\n[rnn]\noutput=64\nhidden=64\n", reference="§layer-rnn",
     dialects=(AB, HANK))
rule("DN374", "recurrent-needs-image", E,
     summary="A convolutional recurrent or history layer receives a flat input.",
     darknet="[crnn], [conv_lstm] and [history] use the carried width, height and channels "
             "without checking them: a flat input builds empty convolutions and a zero-sized "
             "output.",
     bad="[net]\ninputs=256\n\n[crnn]\nsize=3\npad=1\noutput=16\nhidden=16\n",
     good=NET + "\n[crnn]\nsize=3\npad=1\noutput=16\nhidden=16\n",
     reference="§layer-crnn",
     dialects=(AB, HANK))
rule("DN332", "dropblock-size", W,
     summary="dropblock sizes that AlexeyAB's parse_dropout overrides.",
     darknet="An absolute block size larger than the input is clamped to min(w, h); when both "
             "dropblock_size_rel and dropblock_size_abs are set, the relative one is dropped.",
     bad=NET + CONV + "\n[dropout]\ndropblock=1\ndropblock_size_abs=64\n",
     good=NET + CONV + "\n[dropout]\ndropblock=1\ndropblock_size_abs=7\n",
     reference="§layer-dropout",
     dialects=(AB, HANK))
rule("DN375", "layer-after-cost", E,
     summary="A layer follows a [cost] layer.",
     darknet="forward_cost_layer overwrites its output with the per-value errors, and the next "
             "layer computes on those; get_network_output skips cost layers from the end, so a "
             "network with layers after [cost] predicts from the wrong place.",
     bad=NET + CONV + ("\n[connected]\noutput=10\n\n[softmax]\n\n[cost]\ntype=sse\n\n"
                       "[connected]\noutput=10\n"),
     good=NET + CONV + "\n[connected]\noutput=10\n\n[softmax]\n\n[cost]\ntype=sse\n",
     reference="§layer-cost")

rule("DN390", "not-checked-after-error", I,
     summary="Layers that read a broken layer (or a missing input size) are not checked.",
     darknet="parse_network_cfg stops at the first layer it cannot build, so the layers after "
             "it are never made. dnlint reports that first error once and, instead of the "
             "shape errors that only follow from it, this one note naming the layers it could "
             "not check.",
     bad="[net]\nwidth=64\nheight=64\nchannels=3\n\n[convolutionnal]\nfilters=8\n\n"
         "[convolutional]\nfilters=8\n\n[convolutional]\nfilters=8",
     good="[net]\nwidth=64\nheight=64\nchannels=3\n\n[convolutional]\nfilters=8\n\n"
          "[convolutional]\nfilters=8\n\n[convolutional]\nfilters=8",
     reference="§building")
