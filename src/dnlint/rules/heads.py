"""DN4xx: detection heads ([yolo], [Gaussian_yolo], [region], [detection], [iseg],
[contrastive]) and the checks that span several heads or the .data file."""

from dnlint.rules import AB, CONV, HANK, NET, PJ, E, W, rule

THREE = "anchors=10,13, 16,30, 33,23\nnum=3\n"
SIX = "anchors=10,14, 23,27, 37,58, 81,82, 135,169, 344,319\nnum=6\n"
ROUTE_BACK = "\n[route]\nlayers=-3\n"  # a second head on the layer before the first
HALVING = "\n[maxpool]\nsize=2\nstride=2\n"
FOUR_HALVINGS = HALVING * 4
EMBEDDING_48 = "\n[convolutional]\nfilters=48\n"  # the embedding a [yolo] head can name
CONTRASTIVE = "\n[route]\nlayers=-3\n\n[contrastive]\nclasses=1\nyolo_layer=-2\n"


def yolo(filters: int, classes: int, mask: str = "0,1,2", anchors: str = THREE,
         extra: str = "") -> str:
    """An example's 1x1 linear convolution with ``filters`` and the [yolo] head it feeds."""
    return (f"\n[convolutional]\nfilters={filters}\nactivation=linear\n\n[yolo]\nmask={mask}\n"
            f"{anchors}classes={classes}\n{extra}")


rule("DN401", "head-size-mismatch", E,
     summary="A detection head does not receive the number of values its options describe.",
     darknet="parse_yolo/parse_region/parse_Gaussian_yolo compare the head's outputs with its "
             "inputs: the original Darknet asserts (abort), AlexeyAB's stops with 'filters= in "
             "the [convolutional]-layer doesn't correspond to classes= or mask='. [detection] and "
             "[iseg] assert the same relation.",
     bad=NET + yolo(255, 20), good=NET + yolo(75, 20), reference="S15, S19", fix="safe")
rule("DN402", "mask-out-of-range", E,
     summary="A mask value is not an anchor index in [0, num).",
     darknet="Mask values are never range-checked: Darknet reads anchor pairs outside the "
             "anchor array (out-of-bounds reads).",
     bad=NET + yolo(340, 80, mask="0,1,2,3"), good=NET + yolo(255, 80), reference="S17")
rule("DN403", "duplicate-mask", W,
     summary="The same anchor index appears twice in one head's mask.",
     darknet="Accepted: the head predicts the same anchor twice per cell.",
     bad=NET + yolo(255, 80, mask="0,1,1"), good=NET + yolo(255, 80), reference="S17")
rule("DN404", "anchors-count", E,
     summary="The anchors list does not hold exactly 2*num values.",
     darknet="The anchor array has 2*num slots, all 0.5 at first. Missing values stay 0.5; extra "
             "values overflow the heap in the original Darknet's [yolo]/[region] and in every "
             "[Gaussian_yolo], and are silently ignored by AlexeyAB's [yolo]/[region] (a warning "
             "there, unless a mask index reaches them: an error).",
     bad=NET + yolo(255, 80, anchors="anchors=10,13, 16,30, 33,23, 30,61\nnum=3\n"),
     good=NET + yolo(255, 80), reference="S16, S17",
     stock="cspx-p7-mish.cfg gives 20 anchors with num=16 in every head: the first four "
           "heads' masks stay below 16, so AlexeyAB's Darknet ignoring the last 4 pairs changes "
           "nothing there (warnings); the last head's mask 16..19 reads past the array (an "
           "error). One edit, num=20, fixes all five.",
     fix="unsafe",
     levels="an error when the extra anchors overflow the array or a mask index reads past "
            "it; a warning when the fork only ignores anchors that no mask index reaches.")
rule("DN405", "max-boxes-over-truth-slot", E,
     summary="[yolo] max > 90 or [region] max > 30 in the original Darknet.",
     darknet="make_yolo_layer fixes the per-image truth slot at 90 boxes (make_region_layer at "
             "30), but the detector loads max boxes per image and get_next_batch copies them "
             "all into that slot (heap overflow); the [yolo] loss also loops to max.",
     bad=NET + yolo(255, 80, extra="max=200\n"), good=NET + yolo(255, 80, extra="max=90\n"),
     reference="S18",
     dialects=(PJ,))
rule("DN406", "counters-per-class-length", E,
     summary="counters_per_class does not have one count per class.",
     darknet="get_classes_multipliers stops with 'number of values in counters_per_class "
             "doesn't match with classes'.",
     bad=NET + yolo(24, 3, extra="counters_per_class=100,200\n"),
     good=NET + yolo(24, 3, extra="counters_per_class=100,200,50\n"), reference="S33",
     dialects=(AB, HANK))
rule("DN407", "unknown-head-kind", E,
     summary="An unknown iou_loss, iou_thresh_kind, nms_kind or yolo_point value.",
     darknet="AlexeyAB's parse_yolo compares the string with a fixed list and falls back "
             "silently (iou_loss becomes IOU, yolo_point center) or with a message "
             "(nms_kind default, iou_thresh_kind iou); hank-ai's Darknet stops with an error.",
     bad=NET + yolo(255, 80, extra="iou_loss=cio\n"),
     good=NET + yolo(255, 80, extra="iou_loss=ciou\n"), reference="L13, §enums",
     dialects=(AB, HANK))
rule("DN408", "head-classes-differ", E,
     summary="Detection heads of one network disagree on classes.",
     darknet="AlexeyAB's detector stops at detection time when [yolo] layers have different "
             "classes; one network predicts one label set.",
     bad=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK) + yolo(75, 20, "0,1,2", SIX),
     good=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK) + yolo(255, 80, "0,1,2", SIX),
     reference="S32")
rule("DN409", "mask-shared-between-heads", W,
     summary="Two heads use the same anchor.",
     darknet="Accepted: both scales predict boxes for that anchor.",
     bad=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK) + yolo(255, 80, "1,2,3", SIX),
     good=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK) + yolo(255, 80, "0,1,2", SIX),
     reference="S17",
     stock="the shipped yolov4-tiny cfgs give anchor 3 to both heads (and anchor 0 to none, "
           "DN410): an upstream slip copied into most custom tiny models, so it is worth "
           "knowing, but Darknet trains with it, hence a warning and not an error.")
rule("DN410", "anchor-unused", W,
     summary="An anchor that no head's mask uses.",
     darknet="Accepted: the anchor is parsed and never predicted.",
     bad=NET + yolo(255, 80, anchors="anchors=10,13, 16,30, 33,23, 30,61, 62,45, 59,119\nnum=6\n"),
     good=NET + yolo(255, 80), reference="S17",
     stock="the shipped yolov4-tiny cfgs never predict anchor 0 (see DN409): the anchor was "
           "computed for the data set and is wasted, a warning because training still works.")
rule("DN411", "input-not-multiple-of-32", W,
     summary="width or height is not a multiple of what the network needs: the product of the "
             "strides down to each point where two paths merge again (an error when a merge then "
             "joins different sizes), or down to a detection head (a warning).",
     darknet="Strided layers round sizes they do not divide, so a [route], [shortcut], [sam] "
             "or [scale_channels] receives two different sizes: the route becomes 0x0x0 and the "
             "next layer stops, the others assert. A size that builds but is no multiple of the "
             "head's stride makes a grid that does not cover the image evenly (AlexeyAB's "
             "Darknet warns); hank-ai's stops unless both are multiples of 32 and >= 32.",
     bad="[net]\nwidth=40\nheight=40\nchannels=3\n" + FOUR_HALVINGS + yolo(255, 80),
     good=NET + FOUR_HALVINGS + yolo(255, 80), reference="S31",
     dialects=(AB, HANK),
     levels="a warning when the head's grid only fails to cover the image evenly; an error "
            "when a route or shortcut then joins different sizes, and with --dialect hank "
            "when width or height is not a multiple of 32 or is below 32 (hank-ai's Darknet "
            "stops).")
rule("DN412", "data-classes-mismatch", E,
     summary="The .data file's classes differ from a head's classes.",
     darknet="Nothing compares them: training reads labels the head cannot predict, or "
             "predicts classes that have no name.",
     bad="# obj.data: classes=2\n[yolo]\nclasses=80",
     good="# obj.data: classes=2\n[yolo]\nclasses=2",
     reference="S32",
     examples="data")
rule("DN413", "names-count-mismatch", E,
     summary="The names file does not have one line per class.",
     darknet="get_labels reads one name per line; a missing name is read through a NULL "
             "pointer when that class is detected.",
     bad="# obj.names with 3 lines\n[yolo]\nclasses=2",
     good="# obj.names with 2 lines\n[yolo]\nclasses=2", reference="S32",
     examples="data")
rule("DN414", "data-file-unusable", E,
     summary="The .data file or the names file it points to cannot be used.",
     darknet="detector test, valid, map and demo open names= (its default data/names.list "
             "too) and stop with 'Couldn't open file' (the original Darknet exits with status "
             "0, so a script sees success); AlexeyAB's train -map stops the same way before "
             "the first iteration. A plain detector train never opens it. An unreadable .data "
             "file stops every command.",
     bad="names=data/missing.names", good="names=data/obj.names", reference="S32",
     examples="data")
rule("DN415", "contrastive-yolo-layer", E,
     summary="[contrastive] yolo_layer is missing, 0, or not a [yolo] layer.",
     darknet="parse_contrastive dereferences a NULL layer when yolo_layer is missing or 0 "
             "(segmentation fault) and stops with an error when it is not a [yolo].",
     bad=NET + CONV + "\n[contrastive]\nclasses=1\n",
     good=NET + EMBEDDING_48 + yolo(18, 1, extra="embedding_layer=-2\n") + CONTRASTIVE,
     reference="R7",
     dialects=(AB, HANK))
rule("DN416", "embedding-size-mismatch", E,
     summary="[contrastive] and its [yolo] layer disagree on the embedding size.",
     darknet="make_contrastive_layer stops with '[contrastive] embedding_size isn't equal to "
             "[yolo] embedding_size. They should use the same [convolutional] layer'.",
     bad=NET + EMBEDDING_48 + yolo(18, 1) + CONTRASTIVE,
     good=NET + EMBEDDING_48 + yolo(18, 1, extra="embedding_layer=-2\n") + CONTRASTIVE,
     reference="R7",
     dialects=(AB, HANK))
rule("DN417", "embedding-not-divisible", W,
     summary="The embedding layer's filters are not a multiple of the head's anchors.",
     darknet="AlexeyAB's Darknet prints a warning and floors the embedding size; hank-ai's "
             "stops with an error.",
     bad=NET + "\n[convolutional]\nfilters=50\n" + yolo(18, 1, extra="embedding_layer=-2\n"),
     good=NET + EMBEDDING_48 + yolo(18, 1, extra="embedding_layer=-2\n"),
     reference="§layer-yolo",
     dialects=(AB, HANK),
     levels="a warning for AlexeyAB's Darknet, which floors the embedding size; an error with "
            "--dialect hank, which stops.")
# DN418-DN426: the .data file as a training job reads it (dnlint.checks.data_file), and the files
# it names. Reported with a .data file given (dnlint obj.data, --data, or found by a walk).
rule("DN418", "data-list-unusable", E,
     summary="The train= (or valid=) list of a .data file is missing, a directory, or "
             "unreadable.",
     darknet="train_detector opens train= with get_paths, which stops with \"Couldn't open "
             "file\"; valid= is opened by -map before training starts and by detector "
             "valid/map (a warning: training alone does not read it).",
     bad="train=data/missing.txt", good="train=data/train.txt", reference="§data-file",
     examples="data")
rule("DN419", "data-list-empty", E,
     summary="The train= (or valid=) list names no image at all.",
     darknet="get_random_paths picks each image with rand() % count: a division by zero on an "
             "empty list (SIGFPE).",
     bad="train=data/train.txt (an empty file)", good="train=data/train.txt (one path a line)",
     reference="§data-file", examples="data")
rule("DN420", "listed-image-missing", E,
     summary="An image named in a train= or valid= list does not exist (with --check-images).",
     darknet="The original Darknet prints \"Cannot load image\" and exits (status 0) in the "
             "middle of training; hank-ai's stops too (\"image filename does not exist\"); "
             "AlexeyAB's appends the path to bad.list and trains on a blank 10x10 image "
             "instead (a warning there).",
     bad="data/img/0001.jpg (no such file)", good="data/img/0001.jpg (exists)",
     reference="§data-file", examples="data")
rule("DN421", "backup-unusable", E,
     summary="The backup= folder does not exist, is not a folder, or is not writable.",
     darknet="Nothing checks it until save_weights opens backup/<cfg>_<n>.weights at the first "
             "save (iteration 100 or 1000) and stops with \"Couldn't open file\": the GPU time "
             "before it is lost. Without backup= the default is /backup/.",
     bad="backup=backup/ (no such folder)", good="backup=backup/ (a writable folder)",
     reference="§data-file", examples="data")
rule("DN422", "windows-path-separator", E,
     summary="A path in the .data file uses '\\' as a separator on a system where it is not one.",
     darknet="fopen takes the whole value as one file name: on Linux and macOS "
             "'data\\obj.names' is a file of that name in the current folder, which does not "
             "exist, and Darknet stops with \"Couldn't open file\".",
     bad="names=data\\obj.names", good="names=data/obj.names", reference="§data-file",
     examples="data")
rule("DN423", "crlf-path", E,
     summary="A path read by the original Darknet ends with a carriage return (CRLF line ends "
             "in the .data file or a train/valid list).",
     darknet="The original Darknet's fgetl and strip keep the '\\r': names=obj.names\\r and every "
             "image path of a CRLF list name files that do not exist. AlexeyAB's and hank-ai's "
             "remove it (nothing reported with those dialects; a warning when the dialect is "
             "not known).",
     bad="names=data/obj.names\\r", good="names=data/obj.names", reference="§data-file",
     dialects=(PJ,), examples="data")
rule("DN424", "names-crlf", W,
     summary="The names file has CRLF line ends.",
     darknet="The original Darknet's get_labels keeps the '\\r' at the end of every name: labels "
             "print and draw with it. AlexeyAB's and hank-ai's remove it.",
     bad="cat\\r\\ndog\\r\\n", good="cat\\ndog\\n", reference="§data-file", dialects=(PJ,),
     examples="data")
rule("DN425", "data-paths-beside-data-file", W,
     summary="Relative paths of the .data file exist only relative to its own folder, not to "
             "the folder darknet would be started from.",
     darknet="fopen resolves a relative path against the working directory: started from "
             "another folder, Darknet stops with \"Couldn't open file\". dnlint resolves against "
             "--data-root (or data-root in the configuration) when given, else the working "
             "directory, then the .data file's folder, and says which folder fitted.",
     bad="names=obj.names (next to obj.data, run from elsewhere)",
     good="names=data/obj.names (relative to where darknet runs)", reference="§data-file",
     examples="data")
rule("DN426", "names-blank-line", W,
     summary="A blank line in the names file.",
     darknet="get_labels counts every line, a blank one too: the blank line is a class name and "
             "every name after it is shifted to the next class id.",
     bad="cat\\n\\ndog\\n", good="cat\\ndog\\n", reference="§data-file", examples="data")
rule("DN427", "anchors-differ-between-heads", W,
     summary="Heads that share one anchor numbering (the same num) carry different anchors.",
     darknet="Each [yolo] head reads its own anchors= list and picks its boxes from it by mask "
             "index: anchors recomputed for a data set and pasted into one head only make the "
             "same index mean a different box in each head, and training assigns objects to "
             "anchors that no head predicts.",
     bad=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK)
         + yolo(255, 80, "0,1,2", SIX.replace("10,14", "12,16")),
     good=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK) + yolo(255, 80, "0,1,2", SIX),
     reference="§layer-yolo",
     stock="AlexeyAB's resnet152_trident.cfg gives its first head 80,80 where the other two "
           "have 64,64 (and a different order after it): that head's mask 8..11 picks boxes "
           "the others do not have, an upstream slip worth a warning.")
rule("DN428", "mask-reverse-stride", W,
     summary="A head on a finer grid predicts larger anchors than a head on a coarser grid.",
     darknet="Accepted: each head predicts the anchors of its mask at its own grid. The finest "
             "grid (smallest stride) is meant for the smallest objects: with the masks swapped, "
             "small objects are matched to large anchors on a coarse grid and training "
             "converges badly.",
     bad=NET + CONV + yolo(255, 80, "3,4,5", SIX, ROUTE_BACK + HALVING)
         + yolo(255, 80, "0,1,2", SIX),
     good=NET + CONV + yolo(255, 80, "0,1,2", SIX, ROUTE_BACK + HALVING)
          + yolo(255, 80, "3,4,5", SIX),
     reference="§layer-yolo")
# DN429: the .data file's job again (dnlint.checks.data_file), for the fork that cannot run it
rule("DN429", "no-classifier-training", E,
     summary="A classifier's training job (labels= in the .data file, or a cfg that ends as a "
             "classifier) with --dialect hank.",
     darknet="hank-ai's Darknet removed its classifier code (classifier.cpp, train_classifier, "
             "fill_truth): its CLI has no 'classifier' command, so 'darknet classifier train' "
             "prints the usage and exits with status 0 without training, and 'detector train' "
             "trains detectors only. The classifier's own checks (DN446, DN447) are not "
             "reported with it.",
     bad="classes=2\ntrain=data/train.list\nlabels=data/labels.list",
     good="classes=2\ntrain=data/train.txt\nnames=data/obj.names (a detector's job)",
     reference="§data-file", dialects=(HANK,), examples="data")
