"""DN620-DN639: ``--target tensorrt-demos``: will jkjung-avt/tensorrt_demos (yolo_to_onnx.py,
then onnx_to_tensorrt.py with its YOLO plugin) convert this cfg, and into the network Darknet
builds?

The tool is pinned at commit c7c7f035 (2025-09-02); ``dnlint.targets.tensorrt_model`` walks
its steps in order. Errors are where the tool stops; warnings are what it converts silently
into another network.
"""

from dnlint.dialects import Dialect
from dnlint.rules import E, W, rule

_TOOL = "jkjung-avt/tensorrt_demos c7c7f035, yolo/yolo_to_onnx.py"
_PLUGIN = "jkjung-avt/tensorrt_demos c7c7f035, yolo/plugins.py and plugins/yolo_layer.cu"
_TARGET = "tensorrt-demos"
_NET = "[net]\nwidth=64\nheight=64\nchannels=3\n"
_STEM = ("\n[convolutional]\nfilters=8\nsize=3\nstride=1\npad=1\nactivation=leaky\n"
         "\n[maxpool]\nsize=16\nstride=16\n"
         "\n[convolutional]\nfilters=8\nsize=1\nstride=1\nactivation=leaky\n"
         "\n[maxpool]\nsize=2\nstride=2\n")
_ANCHORS = "anchors=10,14, 23,27, 37,58, 81,82, 135,169, 344,319\n"
_HEAD = ("\n[convolutional]\nfilters=18\nsize=1\nstride=1\nactivation=linear\n"
         "\n[yolo]\nmask={mask}\n" + _ANCHORS + "classes=1\nnum=6\n")
_SECOND = "\n[route]\nlayers=-4\n" + _HEAD.format(mask="0,1,2")
# a two-head network the tool converts: heads at strides 32 and 16 of a 64x64 input
GOOD = _NET + _STEM + _HEAD.format(mask="3,4,5") + _SECOND


def _swap(old: str, new: str, text: str = GOOD) -> str:
    assert old in text
    return text.replace(old, new, 1)


rule("DN620", "trt-unknown-layer", E,
     summary="tensorrt_demos converts only [net], [convolutional], [maxpool], [shortcut], "
             "[route], [upsample] and [yolo].",
     darknet="Darknet builds the layer. The tool's cfg parser compares the text between '[' and "
             "']' with those seven names exactly (no [conv] or [network] alias) and stops with "
             "'NAME layer not supported!'. Its parser looks for the first '[' anywhere, so a "
             "'[' in a comment before the first section (not written '#[') also reads as a "
             "section name.",
     bad=_swap("[maxpool]\nsize=16", "[avgpool]\nsize=16"), good=GOOD,
     reference=_TOOL + " DarkNetParser._next_layer (Y:231-248)", target=_TARGET)
rule("DN621", "trt-unreadable-line", E,
     summary="A line tensorrt_demos' cfg parser stops at.",
     darknet="Darknet skips what it cannot read. The tool removes the spaces of each option "
             "line (text after '#' dropped) and splits it at '=': exactly one '=' and a "
             "non-empty value are required, a '[' left in an option line fails an assert, and "
             "a '[' with no ']' after it stops with 'no closing bracket!'. ';' comments are "
             "not comments to it.",
     bad=_swap("pad=1\n", "pad=1\n; same padding\n"), good=GOOD,
     reference=_TOOL + " DarkNetParser (Y:264-287)", target=_TARGET)
rule("DN622", "trt-value-type", E,
     summary="tensorrt_demos cannot type this value: not a plain integer, float, word of "
             "letters or integer list.",
     darknet="Darknet reads each option as its own type. The tool types every value by its "
             "text: all letters is a word, otherwise int() or float() must read it "
             "(activation=hard_mish or relu6, from=-2,-3, a comma list other than layers= all "
             "stop it with ValueError); steps= and scales= of [net] and everything in [yolo] "
             "are skipped.",
     bad=_swap("activation=leaky", "activation=relu6"), good=GOOD,
     reference=_TOOL + " DarkNetParser._parse_params (Y:285-299)", target=_TARGET)
rule("DN623", "trt-missing-key", E,
     summary="An option Darknet defaults, but tensorrt_demos reads without a default.",
     darknet="Darknet has defaults for all of them. The tool indexes its dictionary directly "
             "and stops with KeyError when the line is missing: [net] channels, height, width; "
             "[convolutional] size, stride, filters, activation; [maxpool] size, stride; "
             "[upsample] stride; [shortcut] from, activation; [route] layers (tensorrt_demos "
             "issue #358).",
     bad=_swap("size=1\nstride=1\nactivation=leaky", "size=1\nactivation=leaky"), good=GOOD,
     reference=_TOOL + " GraphBuilderONNX (Y:651-653, Y:694-696, Y:840-841, Y:941, Y:979)",
     target=_TARGET)
rule("DN624", "trt-unsupported-activation", E,
     summary="tensorrt_demos converts only the leaky, mish, swish, logistic and linear "
             "activations of a [convolutional].",
     darknet="Darknet has many more (relu, tanh, elu, ...); the tool stops with 'NAME "
             "activation not supported'.",
     bad=_swap("activation=leaky", "activation=relu"), good=GOOD,
     reference=_TOOL + " GraphBuilderONNX._make_conv_node (Y:745-827)", target=_TARGET)
rule("DN625", "trt-shortcut-or-reference", E,
     summary="A [shortcut] tensorrt_demos refuses, or a layer reference it cannot follow.",
     darknet="Darknet applies a [shortcut]'s activation and adds inputs of different channel "
             "counts. The tool asserts activation=linear and equal channel counts, and stops "
             "where a reference leaves its list of nodes. (It also reads a positive from= one "
             "layer off: [net] is its node 0.)",
     bad=_swap("[route]\nlayers=-4\n", "[route]\nlayers=-4\n\n[shortcut]\nfrom=-5\n"
               "activation=leaky\n"),
     good=_swap("[route]\nlayers=-4\n", "[route]\nlayers=-4\n\n[shortcut]\nfrom=-5\n"
                "activation=linear\n"),
     reference=_TOOL + " GraphBuilderONNX._make_shortcut_node (Y:840-850)", target=_TARGET)
rule("DN626", "trt-route-groups", E,
     summary="A [route] with groups that tensorrt_demos cannot split.",
     darknet="Darknet defaults group_id to 0 and splits any route. The tool needs group_id "
             "given and below groups, groups dividing the channels, one input only ('groups "
             "not implemented for multiple-input route layer!'), and cannot follow a "
             "one-input route to another such route or a [yolo].",
     bad=_swap("layers=-4\n", "layers=-4\ngroups=2\n"),
     good=_swap("layers=-4\n", "layers=-4\ngroups=1\ngroup_id=0\n"),
     dialects=(Dialect.AB, Dialect.HANK),
     reference=_TOOL + " GraphBuilderONNX._make_route_node (Y:866-910)", target=_TARGET)
rule("DN627", "trt-head-input", E,
     summary="The section before a [yolo] is not a [convolutional] with a linear or logistic "
             "activation.",
     darknet="Darknet's [yolo] reads whatever comes before it. The tool takes the "
             "[convolutional] right before each head as an output of the ONNX model and "
             "asserts it is one, with activation linear or logistic.",
     bad=_swap("filters=18\nsize=1\nstride=1\nactivation=linear",
               "filters=18\nsize=1\nstride=1\nactivation=leaky"), good=GOOD,
     reference=_TOOL + " get_output_convs (Y:113-121)", target=_TARGET)
rule("DN628", "trt-classes-lines", E,
     summary="tensorrt_demos needs lines that begin 'classes=', all the same.",
     darknet="Darknet reads classes per head, with a default. The tool collects the lines that "
             "begin 'classes=' (spaces before '=' make it miss one), asserts they are all the "
             "same text and reads the last with int().",
     bad=GOOD.replace("classes=1", "classes = 1"), good=GOOD,
     reference=_TOOL + " get_category_num (Y:124-132)", target=_TARGET)
rule("DN629", "trt-head-lines", E,
     summary="The mask= and anchors= lines are not what tensorrt_demos' line scan expects.",
     darknet="Darknet reads mask and anchors per [yolo]. The tool counts the lines that begin "
             "'mask' and 'anchors' (no indentation) and asserts as many as '[yolo]' lines, "
             "eval()s them as Python lists, looks every head's mask up in the FIRST anchors "
             "line, and asserts every head has as many masks.",
     bad=_swap("mask=0,1,2", "mask=0,1"), good=GOOD,
     reference=_TOOL + " get_anchors, get_anchor_num (Y:141-171)", target=_TARGET)
rule("DN630", "trt-head-count", E,
     summary="tensorrt_demos converts networks of 2, 3 or 4 [yolo] heads, with as many "
             "[upsample] as heads - 1, or none.",
     darknet="Darknet builds any number of heads. The tool's output table has entries for 2, "
             "3 and 4 heads only (a 5-head model like yolov3_5l stops), and its check of the "
             "head layout asserts the upsample count.",
     bad=_NET + _STEM + _HEAD.format(mask="0,1,2"), good=GOOD,
     reference=_TOOL + " is_pan_arch, main (Y:86-97, Y:1031-1040)", target=_TARGET)
rule("DN631", "trt-plugin-limits", E,
     summary="The YOLO plugin of tensorrt_demos refuses this head.",
     darknet="Darknet accepts it. The plugin step asserts: scale_x_y on every head or none, "
             "each >= 1.0; new_coords on every head or none; at most 6 anchors per head; a "
             "positive first anchor; classes > 0; an input width that is a multiple of the "
             "strides it assumes (8, 16, 32, 64: tensorrt_demos issue #454); and (classes + 5) "
             "x anchors filters in the [convolutional] before the head (issue #286).",
     bad=_swap("filters=18\nsize=1\nstride=1\nactivation=linear\n\n[yolo]\nmask=0",
               "filters=21\nsize=1\nstride=1\nactivation=linear\n\n[yolo]\nmask=0"),
     good=GOOD, reference=_PLUGIN + " (P:24-47, P:90-104, C:120, C:331, C:351-356)",
     target=_TARGET)
rule("DN632", "trt-head-stride", E,
     summary="A head is not at the stride tensorrt_demos assumes for its place.",
     darknet="Darknet gives each head the grid of the layer before it. The tool never looks: "
             "it declares the heads' grids as input/32, /16, /8 in file order (/64 first for "
             "four heads), reversed when an [upsample] comes before the first [yolo], and the "
             "YOLO plugin then asserts the real grid equals that (yolo_layer.cu:121-122; "
             "tensorrt_demos issue #299).",
     bad=_swap("[maxpool]\nsize=2\nstride=2\n", "[maxpool]\nsize=2\nstride=1\n"), good=GOOD,
     reference=_PLUGIN + " (Y:1031-1043, C:121-122)", target=_TARGET)
rule("DN633", "trt-weights-overread", E,
     summary="tensorrt_demos reads more weights than Darknet writes for this cfg.",
     darknet="The tool reads filters x input channels x size x size weights per "
             "[convolutional], ignoring groups=: a grouped convolution reads more than Darknet "
             "wrote, and the conversion stops with 'buffer is too small' when the file runs "
             "out.",
     bad=_swap("filters=8\nsize=1\nstride=1\nactivation=leaky",
               "filters=8\nsize=1\nstride=1\ngroups=8\nactivation=leaky"), good=GOOD,
     reference=_TOOL + " WeightLoader (Y:431-519, Y:702)", target=_TARGET)
rule("DN635", "trt-first-head-anchors", W,
     summary="tensorrt_demos uses the first head's anchors= line for every head.",
     darknet="Darknet reads each [yolo]'s own anchors. The tool reads only the first anchors "
             "line and applies every head's mask to it, so a head with anchors of its own "
             "decodes boxes with the wrong sizes.",
     bad=_swap("mask=0,1,2\n" + _ANCHORS, "mask=0,1,2\nanchors=12,16, 19,36, 40,28, 36,75, "
               "76,55, 72,146\n"), good=GOOD,
     reference=_TOOL + " get_anchors (Y:141-159)", target=_TARGET)
rule("DN636", "trt-letter-box", W,
     summary="[net] letter_box=1: tensorrt_demos resizes the image without letterboxing unless "
             "told to.",
     darknet="AlexeyAB's and hank's Darknet letterbox the image at inference (resized keeping "
             "its aspect ratio, padded) when [net] has letter_box=1, and map the boxes back. "
             "The conversion does not carry the option; trt_yolo.py and eval_yolo.py stretch "
             "the image unless run with -l/--letter_box, and the boxes differ.",
     bad=_swap("channels=3\n", "channels=3\nletter_box=1\n"), good=GOOD,
     dialects=(Dialect.AB, Dialect.HANK),
     reference="jkjung-avt/tensorrt_demos c7c7f035, utils/yolo_with_plugins.py "
               "_preprocess_yolo, trt_yolo.py --letter_box", target=_TARGET)
rule("DN638", "trt-ignored-option", W,
     summary="tensorrt_demos ignores an option that changes what Darknet computes.",
     darknet="The tool converts every [convolutional] as an ungrouped, undilated convolution "
             "with SAME_LOWER padding and one stride, every [maxpool] with SAME_UPPER "
             "padding, and an [upsample] as a nearest resize by stride: groups, dilation, "
             "pad/padding other than size/2, stride_x/stride_y, xnor/binary, antialiasing, a "
             "maxpool's padding or maxpool_depth, and a negative upsample stride are lost.",
     bad=_swap("filters=8\nsize=1\nstride=1\nactivation=leaky",
               "filters=8\nsize=1\nstride=1\nxnor=1\nactivation=leaky"), good=GOOD,
     reference=_TOOL + " GraphBuilderONNX (Y:694-723, Y:936-997)", target=_TARGET)
