"""DN640-DN659: ``--target hank-onnx``: will hank-ai Darknet's ONNX export
(``darknet_onnx_export``, commit f684e1d7) export this cfg, and will onnxruntime load the model
it writes?

Errors are where the export stops, and the models it writes that onnxruntime refuses ("the
export succeeds but the model will not load"); warnings are what it exports silently into
another network.
"""

from dnlint.dialects import Dialect
from dnlint.rules import E, W, rule

_TOOL = "hank-ai/darknet f684e1d7, src-onnx/darknet_onnx.cpp"
_TARGET = "hank-onnx"
_NET = "[net]\nwidth=64\nheight=64\nchannels=3\n"
_CONV = "\n[convolutional]\nfilters=8\nsize=3\nstride=1\npad=1\nactivation=leaky\n"
_POOL = "\n[maxpool]\nsize=2\nstride=2\n"
_HEAD = ("\n[convolutional]\nfilters=18\nsize=1\nstride=1\nactivation=linear\n"
         "\n[yolo]\nmask=0,1,2\nanchors=10,14, 23,27, 37,58\nclasses=1\nnum=3\n")
# a network the tool exports and onnxruntime runs: one head at stride 2
GOOD = _NET + _CONV + _POOL + _HEAD


def _swap(old: str, new: str, text: str = GOOD) -> str:
    assert old in text
    return text.replace(old, new, 1)


rule("DN640", "hank-onnx-load-refused", E,
     summary="hank's Darknet refuses the cfg, and the export tool loads it with hank's "
             "Darknet first.",
     darknet="darknet_onnx_export starts with Darknet::CfgFile::read and create_network of "
             "the same commit, so every error of the hank dialect stops it (an option hank "
             "does not use in [net], a duplicate key, ...). The message names the hank-dialect "
             "rule; under --dialect hank that rule itself is reported instead.",
     bad=_swap("channels=3\n", "channels=3\nmax_crop=256\n"), good=GOOD,
     dialects=(None,), reference=_TOOL + " load_network (O:148-160), darknet_onnx_main.cpp",
     target=_TARGET)
rule("DN641", "hank-onnx-unknown-layer", E,
     summary="The export tool writes only convolutional, route, maxpool, upsample, shortcut "
             "and yolo layers.",
     darknet="Darknet builds the layer; the tool throws 'layer type X in FILE:LINE is not "
             "supported in this version of the Darknet/YOLO ONNX export tool'.",
     bad=_swap(_POOL, "\n[avgpool]\n" + _POOL), good=GOOD,
     reference=_TOOL + " build_model_nodes (O:552-612)", target=_TARGET)
rule("DN642", "hank-onnx-unsupported-activation", E,
     summary="The export tool writes only logistic, leaky, relu, mish and linear activations.",
     darknet="Darknet computes swish, elu, tanh and the rest. The tool refuses any other "
             "activation of a [convolutional] or [shortcut] ('activation type N ... is not "
             "supported', N the enum number: 17 is swish).",
     bad=_swap("activation=leaky", "activation=swish"), good=GOOD,
     reference=_TOOL + " check_activation (O:690-718)", target=_TARGET)
rule("DN643", "hank-onnx-masks-per-head", E,
     summary="The export tool's box decoding needs exactly 3 masks per [yolo] head.",
     darknet="Darknet takes any number of masks. The tool's post-processing (on unless "
             "-noboxes) throws 'expected 3 masks per YOLO head' (stock: yolov4-p5, -p6 with 4).",
     bad=_swap("filters=18", "filters=24", _swap("mask=0,1,2", "mask=0,1,2,3",
                                                 _swap("37,58\n", "37,58, 81,82\n")
                                                 .replace("num=3", "num=4"))),
     good=GOOD, reference=_TOOL + " (O:1199-1204, O:1647-1657)", target=_TARGET)
rule("DN644", "hank-onnx-route-group", E,
     summary="The export tool needs a single-input [route]'s groups >= 1 and 0 <= group_id "
             "< groups.",
     darknet="For a [route] of one layer with groups= or group_id=, the tool writes a Split "
             "node and first throws 'invalid number of groups' for groups below 1 and 'invalid "
             "group number' for a group_id outside 0..groups-1, even where Darknet loads the "
             "cfg (groups=1 with group_id=1).",
     bad=_swap(_POOL, "\n[route]\nlayers=-1\ngroups=1\ngroup_id=1\n" + _POOL), good=GOOD,
     reference=_TOOL + " (O:818-837)", target=_TARGET)
rule("DN645", "hank-onnx-model-refused", E,
     summary="The export succeeds, but onnxruntime refuses the model it writes.",
     darknet="The tool writes each node's attributes from the cfg text with its own rules and "
             "the weights of the layers Darknet built. Where they disagree the model is "
             "invalid: a [maxpool] padded (size-1)/2 on each side (size=2 stride=1, Tiny "
             "YOLOv3, shrinks the map by one where Darknet keeps it), a [shortcut] between "
             "different channel counts (an ONNX Add), a grouped convolution written with "
             "group=1, a kernel size the weights do not have (its default size is 3, "
             "Darknet's 1), a Concat of maps of different sizes.",
     bad=_swap(_POOL, "\n[maxpool]\nsize=2\nstride=1\n\n[route]\nlayers=-1,-2\n"),
     good=_swap(_POOL, _POOL.replace("stride=2", "stride=2") +
                "\n[convolutional]\nfilters=8\nsize=1\nstride=1\nactivation=leaky\n"
                "\n[route]\nlayers=-1,-2\n"),
     reference=_TOOL + " (O:621-687, O:909-927)", target=_TARGET)
rule("DN650", "hank-onnx-defaults-differ", W,
     summary="The exported layer computes another output than Darknet's, and the model still "
             "loads.",
     darknet="The tool reads a missing stride= as 2 and size= as 3 in [convolutional] and "
             "[maxpool] (Darknet: 1 and 1; stride 1 and size = stride), pads (size-1)/2 on each "
             "side and only with pad=1, and ignores padding=. Where the layers after it still "
             "fit (a layer nothing reads, a head-less network), the export and onnxruntime "
             "succeed with another network; where they do not, it is DN645.",
     bad=GOOD + "\n[convolutional]\nfilters=8\nsize=3\npad=1\nactivation=leaky\n",
     good=GOOD + "\n[convolutional]\nfilters=8\nsize=3\nstride=1\npad=1\nactivation=leaky\n",
     reference=_TOOL + " (O:621-647, O:909-927)", target=_TARGET)
rule("DN651", "hank-onnx-ignored-option", W,
     summary="The export tool ignores an option that changes what Darknet computes.",
     darknet="Not written to the model: a [convolutional]'s dilation and padding= (it pads "
             "(size-1)/2 for pad=1, else nothing), a [shortcut]'s weights_type and extra from= "
             "layers, a [yolo]'s scale_x_y and new_coords (the boxes are decoded as plain "
             "YOLOv3).",
     bad=_swap("num=3\n", "num=3\nscale_x_y=1.05\n"), good=GOOD,
     reference=_TOOL + " (O:626-647, O:677-682, O:1540-1700)", target=_TARGET)
rule("DN652", "hank-onnx-anchor-scaling", W,
     summary="The export tool scales this head's anchors by an integer stride that is not "
             "exact.",
     darknet="The box decoding divides each anchor by net width / grid width computed in "
             "integers; when the width is not a multiple of the grid, the boxes get other "
             "sizes than Darknet's.",
     bad=_swap(_POOL, "\n[maxpool]\nsize=3\nstride=3\n"), good=GOOD,
     reference=_TOOL + " (O:1649-1650)", target=_TARGET)
rule("DN653", "hank-onnx-letter-box", W,
     summary="[net] letter_box=1 is not in the exported model: its users resize the image "
             "their own way.",
     darknet="hank's Darknet letterboxes the image at inference (resized keeping its aspect "
             "ratio, padded) when [net] has letter_box=1, and maps the boxes back. The ONNX "
             "model takes the network's input as it is: a caller that stretches the image "
             "gets other boxes.",
     bad=_swap("channels=3\n", "channels=3\nletter_box=1\n"), good=GOOD,
     dialects=(Dialect.AB, Dialect.HANK),
     reference=_TOOL + " (no letter_box anywhere in src-onnx)", target=_TARGET)
