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

# --- recurrent layers and the remaining types (DN370-DN399) ---------------------------------
rule("DN370", "crnn-transposed", W,
     summary="[crnn] on a non-square input in the original Darknet.",
     darknet="parse_crnn passes width and height to make_crnn_layer in swapped order: a 6x4 "
             "input comes out 4x6.",
     bad="[net]\nwidth=64\nheight=32\n...\n[crnn]",
     good="[net]\nwidth=64\nheight=64\n...\n[crnn]", reference="S25")
rule("DN371", "crnn-size-not-preserved", E,
     summary="[crnn] convolutions that do not keep the spatial size (AlexeyAB's).",
     darknet="make_crnn_layer asserts that the input convolution's outputs equal the output "
             "convolution's inputs, which holds only for stride 1 and padding size/2. The "
             "defaults (size=3, pad=0) fail the assert.",
     bad="[crnn]\nsize=3\noutput=64\nhidden=64",
     good="[crnn]\nsize=3\npad=1\noutput=64\nhidden=64", reference="S26")
rule("DN372", "conv-lstm-size-not-preserved", E,
     summary="[conv_lstm] convolutions that do not keep the spatial size.",
     darknet="The state (W, V) convolutions run on the output of the previous step, so stride "
             "must be 1 and the padding size/2. Nothing checks it: the buffers disagree.",
     bad="[conv_lstm]\nsize=3\noutput=64", good="[conv_lstm]\nsize=3\npad=1\noutput=64",
     reference="S27")
rule("DN373", "rnn-hidden-default", W,
     summary="[rnn] without 'hidden' in AlexeyAB's Darknet.",
     darknet="AlexeyAB's parse_rnn reads hidden with default 1: the state is a single number. "
             "An original-Darknet rnn cfg gets this silently.",
     bad="[rnn]\noutput=1024", good="[rnn]\noutput=1024\nhidden=1024", reference="§4.27")
rule("DN374", "recurrent-needs-image", E,
     summary="A convolutional recurrent or history layer receives a flat input.",
     darknet="[crnn], [conv_lstm] and [history] use the carried width, height and channels "
             "without checking them: a flat input builds empty convolutions and a zero-sized "
             "output.",
     bad="[connected]\noutput=64\n\n[crnn]", good="[convolutional]\nfilters=64\n\n[crnn]",
     reference="§4.30")
