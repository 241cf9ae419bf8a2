"""DN6xx: ``--target opencv``: will OpenCV 4.x's Darknet importer (cv2.dnn.readNetFromDarknet)
load this cfg, and does it build the network Darknet builds?

These rules run only when the target is selected (``--target opencv`` or ``target`` in the
configuration). The "What Darknet does" text of each rule also says what OpenCV does: the
importer is modules/dnn/src/darknet/darknet_io.cpp (ReadDarknetFromCfgStream) and
darknet_importer.cpp (populateNet) of OpenCV 4.x; OpenCV 5 removed it.
"""

from dnlint.rules import CONV, NET, E, W, rule

_IMPORTER = "OpenCV 4.x, darknet_io.cpp ReadDarknetFromCfgStream"
_TARGET = "opencv"
# OpenCV's [convolutional] has no default size (Darknet's is 1): DN604 without it
_CONV = CONV + "size=1\n"
# a detection head's input: 3 anchors of (1 class + 5) values for [yolo]
_HEAD = "\n[convolutional]\nfilters=18\nsize=1\nactivation=linear\n\n"
_REGION = ("\n[convolutional]\nfilters=6\nsize=1\nactivation=linear\n\n"
           "[region]\nclasses=1\nnum=1\nanchors=1,1\nsoftmax=1\n")

rule("DN601", "opencv-unknown-layer", E,
     summary="OpenCV's Darknet importer has no layer for this section type.",
     darknet="Darknet builds the layer (or, for a name it does not know, an empty one). OpenCV "
             "imports only convolutional, connected, maxpool, avgpool, crop, softmax, route, "
             "dropout, cost, reorg, region, shortcut, scale_channels, sam, upsample and yolo, "
             "under exactly these names (no [conv] or [network] aliases), and stops with "
             "'Unknown layer type: NAME'.",
     bad=NET + "\n[conv]\nfilters=16\n", good=NET + _CONV, reference=_IMPORTER, target=_TARGET)
rule("DN602", "opencv-unsupported-activation", E,
     summary="OpenCV cannot import this activation function.",
     darknet="Darknet has a dozen more activations (relu6, ramp, elu, selu, gelu, hardtan, "
             "...). OpenCV's importer knows linear, relu, leaky, swish, silu, mish, logistic "
             "and tanh, and stops with 'Unsupported activation: NAME' for any other value, on "
             "any section type.",
     bad=NET + _CONV + "activation=elu\n", good=NET + _CONV + "activation=relu\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN603", "opencv-head-assertion", E,
     summary="A [yolo] or [region] head fails OpenCV's assertion on classes, num, anchors or "
             "mask.",
     darknet="Darknet has defaults (classes=20, num=1, a mask of 0..num-1) and tolerates an "
             "anchors list of the wrong length. OpenCV asserts that anchors (and for [yolo] "
             "mask) are given, that classes > 0 and num > 0, that anchors holds exactly 2*num "
             "values, and that every mask value picks an existing anchor pair.",
     bad=NET + _HEAD + "[yolo]\nnum=3\nclasses=1\nanchors=10,13, 16,30, 33,23\n",
     good=NET + _HEAD + "[yolo]\nmask=0,1,2\nnum=3\nclasses=1\nanchors=10,13, 16,30, 33,23\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN604", "opencv-option-rejected", E,
     summary="An option value that OpenCV's importer rejects (or crashes on).",
     darknet="Darknet accepts the value or corrects it. OpenCV stops on: flipped=1, stride <= 0 "
             "in [convolutional]/[maxpool]/[reorg], size or filters <= 0, groups that do not "
             "divide the input channels (groups=0 divides by zero: SIGFPE), output <= 0, "
             "[softmax] groups != 1, [shortcut] beta != 0, [crop] without positive "
             "crop_height/crop_width, and [net] width/height/channels <= 0.",
     bad=NET + _CONV + "\n[softmax]\ngroups=2\n", good=NET + _CONV + "\n[softmax]\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN605", "opencv-bad-reference", E,
     summary="A layer index OpenCV cannot resolve: [route] layers, [shortcut]/[sam]/"
             "[scale_channels] from, or a [dropout]/[cost] first layer.",
     darknet="Darknet checks references against its own layer list. OpenCV resolves a negative "
             "index against the section count and then looks the layer up among those imported "
             "so far: a missing option, a reference to the layer itself or a later one, and a "
             "[dropout] or [cost] with no layer before it all stop the import (an assertion or "
             "'vector::_M_range_check').",
     bad=NET + "\n[dropout]\nprobability=0.5\n" + _CONV,
     good=NET + _CONV + "\n[dropout]\nprobability=0.5\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN606", "opencv-unreadable-line", E,
     summary="A line or file structure OpenCV's cfg reader stops at.",
     darknet="OpenCV drops every space and every character above 'z' from each line, then "
             "asserts that an option line has '=' and a section line has ']'. An option before "
             "the first section, or a file with no layer section, becomes a nameless layer: "
             "'Unknown layer type: '.",
     bad=NET + _CONV + "batch_normalize\n", good=NET + _CONV + "batch_normalize=1\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN607", "opencv-duplicate-region", E,
     summary="More than one [region] head: OpenCV names every one 'detection_out'.",
     darknet="Darknet builds every [region]. OpenCV gives each the same output name and "
             "populateNet stops with 'Duplicate blobs produced by multiple sources'.",
     bad=NET + _REGION + _REGION, good=NET + _REGION,
     reference="OpenCV 4.x, darknet_importer.cpp populateNet", target=_TARGET)
rule("DN610", "opencv-ignored-option", W,
     summary="OpenCV ignores an option that changes what Darknet computes.",
     darknet="Darknet honours the option at inference; OpenCV's importer never reads it, so "
             "the imported network computes something else (binary weights, dilation, shared "
             "or weighted inputs, a softmax temperature, an upsample scale, ...). In [net], "
             "letter_box=1 makes AlexeyAB's and hank's Darknet letterbox the image before the "
             "network and map the boxes back; OpenCV drops it, so the usual blobFromImage "
             "resize gives other boxes. (Every other [net] option is training-only or an input "
             "size OpenCV reads too.)",
     stock="The YOLOv4-CSP, -P5, -P6, -P7 and -x-mish stock cfgs set letter_box=1: deployed "
           "through OpenCV with a plain resize, their boxes are off.",
     bad=NET + _CONV + "\n[upsample]\nstride=2\nscale=2\n",
     good=NET + _CONV + "\n[upsample]\nstride=2\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN611", "opencv-shape-differs", W,
     summary="OpenCV gives this layer another output shape than Darknet does.",
     darknet="The shape Darknet computes is in the message, next to OpenCV's (what "
             "net.getLayersShapes reports). Causes: a default that differs ([upsample] stride "
             "2 in Darknet, 1 in OpenCV; [reorg] stride 1 in Darknet, 2 in OpenCV), options "
             "OpenCV ignores (stride_x/stride_y, maxpool_depth, out_channels, reverse), and "
             "[route] groups over inputs of different widths.",
     bad=NET + _CONV + "\n[upsample]\n", good=NET + _CONV + "\n[upsample]\nstride=2\n",
     reference=_IMPORTER, target=_TARGET)
rule("DN612", "opencv-extra-activation", W,
     summary="OpenCV applies an activation that Darknet's layer type ignores.",
     darknet="Only [convolutional], [connected], [shortcut], [scale_channels] and [sam] read "
             "activation= in Darknet. OpenCV's importer applies it after any section, so the "
             "imported network activates where the trained one does not.",
     bad=NET + _CONV + "\n[maxpool]\nsize=2\nstride=2\nactivation=leaky\n",
     good=NET + _CONV + "\n[maxpool]\nsize=2\nstride=2\n", reference=_IMPORTER, target=_TARGET)
rule("DN613", "opencv-last-value-wins", W,
     summary="A key repeated with different values: OpenCV uses the last one, Darknet the "
             "first.",
     darknet="Darknet's option_find returns the first occurrence of a key; OpenCV stores the "
             "options in a map that each occurrence overwrites.",
     bad=NET + _CONV + "filters=32\n", good=NET + _CONV, reference=_IMPORTER, target=_TARGET)
rule("DN614", "opencv-forward-fails", W,
     summary="OpenCV loads the network, but its first forward pass fails.",
     darknet="Darknet runs it. OpenCV's importer accepts it, then a layer refuses its inputs "
             "when shapes are first computed (net.forward, net.getLayersShapes): a [shortcut] "
             "between layers of different sizes (OpenCV's Eltwise needs equal sizes, Darknet "
             "samples the larger one), or a [region] that OpenCV's Region layer rejects: "
             "coords other than 4, softmax other than 1 (Darknet's default is 0) or tree= "
             "('Yolo9000 is not implemented').",
     bad=NET + _CONV + "\n[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n",
     good=NET + _CONV + _CONV + "\n[shortcut]\nfrom=-2\n",
     reference="OpenCV 4.x, eltwise_layer.cpp and region_layer.cpp", target=_TARGET)
