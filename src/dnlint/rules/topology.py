"""DN3xx: layer references, shapes and the arithmetic of the shape pass."""

from dnlint.rules import E, W, rule

rule("DN302", "reference-out-of-range", E,
     summary="A layer reference that points at the layer itself, forward, or before layer 0.",
     darknet="No bounds check: a later layer is not built yet (all shapes 0); a negative index "
             "reads outside the layer array (undefined behaviour).",
     bad="[route]\nlayers=5   # in layer 3", good="[route]\nlayers=-1,2", reference="R4, R5")
rule("DN304", "share-index-mismatch", E,
     summary="share_index points at a layer whose weights cannot be shared.",
     darknet="AlexeyAB's Darknet stops: the shared layer must have the same size, channels and "
             "filters.",
     bad="[convolutional]\nshare_index=-2   # a 1x1 conv sharing a 3x3 conv",
     good="[convolutional]\nshare_index=-2   # same size, channels, filters", reference="R8")
rule("DN305", "division-by-zero", E,
     summary="A shape computation divides by zero.",
     darknet="Integer division by zero: the process dies of SIGFPE.",
     bad="[maxpool]\nstride=0", good="[maxpool]\nstride=2", reference="S5")
rule("DN306", "needs-image-input", E,
     summary="A spatial layer receives a flat (or zero-sized) input.",
     darknet="parse_network_cfg stops with 'Layer before convolutional layer must output image.'",
     bad="[connected]\noutput=10\n\n[convolutional]\nfilters=8",
     good="[convolutional]\nfilters=8\n\n[connected]\noutput=10", reference="§3")
rule("DN307", "output-collapses", E,
     summary="A layer's output width or height is 0 or less.",
     darknet="Nothing checks it: zero-sized or negative buffers, out-of-bounds reads. C "
             "division truncates toward zero, which can hide a negative numerator.",
     bad="[net]\nwidth=4\nheight=4\n\n[convolutional]\nsize=7",
     good="[net]\nwidth=416\nheight=416\n\n[convolutional]\nsize=7", reference="S6")
rule("DN308", "groups-zero", E,
     summary="groups=0 in a convolution (original Darknet).",
     darknet="make_convolutional_layer divides channels by groups: SIGFPE. AlexeyAB's treats 0 "
             "as 1.",
     bad="[convolutional]\ngroups=0", good="[convolutional]\ngroups=1", reference="S3")
rule("DN309", "groups-not-divisible", E,
     summary="groups does not divide the input channels or the filters.",
     darknet="The channel count per group is floored silently; weights and shapes no longer "
             "match the intent.",
     bad="[convolutional]\nfilters=32\ngroups=3", good="[convolutional]\nfilters=33\ngroups=3",
     reference="S4")
rule("DN310", "even-size-with-pad", W,
     summary="An even kernel size with pad=1.",
     darknet="pad=1 means size/2 pixels on each side, so a 2x2 stride-1 conv grows the map by "
             "one pixel.",
     bad="[convolutional]\nsize=2\npad=1", good="[convolutional]\nsize=3\npad=1",
     reference="S9")
rule("DN311", "dilation-shape-mismatch", E,
     summary="dilation > 1 with a padding that does not keep the size.",
     darknet="AlexeyAB's Darknet declares the output shape without the dilation but computes "
             "with it: buffer sizes disagree.",
     bad="[convolutional]\nsize=3\ndilation=2\npad=1",
     good="[convolutional]\nsize=3\ndilation=2\npadding=2", reference="S8")
rule("DN312", "int-overflow", E,
     summary="A size or count exceeds what a 32-bit C int holds.",
     darknet="Darknet computes shapes and counts in int: the value wraps around.",
     bad="[connected]\noutput=100000   # after a 416x416x64 input",
     good="[connected]\noutput=1000", reference="§0")
rule("DN313", "no-spatial-layer", E,
     summary="No layer receives an input wider and taller than 1 (AlexeyAB's and hank-ai's).",
     darknet="parse_network_cfg divides by the number of such layers to print an average: "
             "SIGFPE for vector-only networks such as AlexeyAB's own rnn.cfg.",
     bad="[net]\ninputs=256\n\n[rnn]\noutput=256",
     good="# use the original Darknet: dnlint --dialect pjreddie", reference="S29")
rule("DN314", "deform-options", E,
     summary="Conflicting sway/rotate/stretch/stretch_sway options.",
     darknet="AlexeyAB's parse_convolutional stops with an error when more than one is set, or "
             "any with size=1.",
     bad="[convolutional]\nsize=3\nsway=1\nrotate=1", good="[convolutional]\nsize=3\nsway=1",
     reference="S35")
