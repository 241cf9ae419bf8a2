"""DN430-DN449: the data set as a training job reads it (``--check-labels``): the label file
each dialect derives from every listed image, what read_boxes and fill_truth_detection make of
it, a classifier's labels as fill_truth matches them, and the list files themselves
(dnlint.dataset)."""

from dnlint.rules import AB, AUTO, CONV, NET, PJ, E, W, rule

MINI_BATCH_4 = "batch=8\nsubdivisions=2\n"
HEAD_2 = (CONV.replace("16", "21") + "activation=linear\n\n[yolo]\nmask=0,1,2\n"
          "anchors=10,13, 16,30, 33,23\nnum=3\nclasses=2\n")

rule("DN430", "label-file-missing", E,
     summary="A listed image has no label file where the dialect looks for it.",
     darknet="The original Darknet's read_boxes stops training with \"Couldn't open file\" "
             "(exit status 0); hank-ai's stops with \"failed to open annotation file\". "
             "AlexeyAB's prints \"Can't open label file\", appends the path to bad.list and "
             "trains on the image as if it had no objects.",
     bad="data/img/0001.jpg listed, no data/img/0001.txt",
     good="data/img/0001.jpg listed, data/img/0001.txt beside it (empty for a negative)",
     reference="§labels", examples="data",
     levels="an error for the original Darknet and hank-ai's, which stop; a warning for "
            "AlexeyAB's, which trains on the image as a negative.")
rule("DN431", "label-file-unreadable", E,
     summary="The label path names a directory, a FIFO, a device, a link loop, an unreadable "
             "file, or a file far larger than any label file.",
     darknet="fopen of a directory succeeds on Linux and fscanf then reads nothing: the image "
             "trains as a negative. A FIFO blocks the loader thread; a link to /dev/zero "
             "gives fscanf a zero byte, which is no number: a negative too. "
             "dnlint never reads past the first 4 MiB and never opens a FIFO for reading.",
     bad="data/img/0001.txt is a directory", good="data/img/0001.txt is a text file",
     reference="§labels", examples="data",
     levels="an error, except a regular file over 4 MiB (a warning: only its start is "
            "checked).")
rule("DN432", "label-line-unreadable", E,
     summary="read_boxes stops at a line it cannot read as a box: every box after it is lost.",
     darknet="read_boxes loops while fscanf(\"%d %f %f %f %f\") converts five values. A word, a "
             "comma or a byte order mark ends the loop there, silently: the boxes before it are "
             "used, the rest of the file is not.",
     bad="0,0.51,0.42,0.10,0.20", good="0 0.51 0.42 0.10 0.20", reference="§labels",
     examples="data")
rule("DN433", "label-fields-shifted", E,
     summary="A label line that does not hold exactly one box: fscanf reads across lines and "
             "every later box is shifted.",
     darknet="fscanf skips newlines like spaces: a sixth number on a line (a confidence, a "
             "track id) becomes the class id of the next box, and every box after it reads its "
             "fields from the wrong columns.",
     bad="0 0.51 0.42 0.10 0.20 0.98", good="0 0.51 0.42 0.10 0.20", reference="§labels",
     examples="data")
rule("DN434", "label-class-out-of-range", E,
     summary="A box's class id is not in [0, classes).",
     darknet="AlexeyAB's prints \"Wrong annotation: class_id = 3. But class_id should be [from 0 "
             "to 2]\" and skips the box (a negative id is skipped later by the [yolo] layer); "
             "hank-ai's stops; the original Darknet trains with it, indexing past the class "
             "outputs of the head.",
     bad="3 0.5 0.5 0.1 0.1 (classes=3)", good="2 0.5 0.5 0.1 0.1 (classes=3)",
     reference="§labels", examples="data")
rule("DN435", "label-coordinates-out-of-range", E,
     summary="A box's x or y is not in (0, 1], or its w or h is not in (0, 1] (pixel "
             "coordinates, corner format).",
     darknet="Label coordinates are fractions of the image. AlexeyAB's correct_boxes turns a box "
             "lying outside the image into its sentinel 999999 and fill_truth_detection skips "
             "it (\"Wrong annotation\"), and clips w or h above 1; hank-ai's stops; the original "
             "trains on what the clipping leaves (often nothing).",
     bad="0 412 230 64 80", good="0 0.644 0.479 0.100 0.167", reference="§labels",
     examples="data")
rule("DN436", "label-zero-placeholder", E,
     summary="A box at x=0 and y=0 (a placeholder line of zeros).",
     darknet="correct_boxes marks x == 0 and y == 0 with the sentinel 999999. AlexeyAB's skips "
             "it (\"Wrong annotation: x = 0, y = 0\"); hank-ai's stops; the original Darknet "
             "keeps the sentinel as a box and its [yolo] layer indexes far outside its outputs "
             "(a segmentation fault, seen with its own build).",
     bad="0 0 0 0 0", good="(an empty label file for an image without objects)",
     reference="§labels", examples="data")
rule("DN437", "label-box-too-small", W,
     summary="A box narrower or lower than one network pixel: dropped silently.",
     darknet="AlexeyAB's and hank-ai's fill_truth_detection skip a box with w < 1/width or "
             "h < 1/height of the network; the original skips w or h below 0.001.",
     bad="0 0.5 0.5 0.001 0.2 (width=416)", good="0 0.5 0.5 0.01 0.2 (width=416)",
     reference="§labels", examples="data")
rule("DN438", "label-too-many-boxes", W,
     summary="A label file has more boxes than the head's max: the extra boxes are dropped.",
     darknet="fill_truth_detection shuffles the boxes and keeps the first max (the last head's "
             "max=, default 90 in the original, 200 in AlexeyAB's and hank-ai's): a different "
             "random subset of the objects each time the image is drawn.",
     bad="250 boxes, [yolo] max=200", good="250 boxes, [yolo] max=300", reference="§labels",
     examples="data")
rule("DN439", "label-path-not-derived", E,
     summary="The dialect does not turn this image's name into a .txt label path: it reads "
             "the image itself (or another file) as the label file.",
     darknet="The original Darknet replaces only .jpg, .png, .JPG and .JPEG: for a .jpeg or .bmp "
             "image it opens the image as its label file and finds no box (trained as a "
             "negative, silently). AlexeyAB's knows more extensions and prints \"Failed to "
             "infer label file name\" for the others. hank-ai's cuts at the last '.', in a "
             "folder name too.",
     bad="data/img/0001.jpeg (--dialect pjreddie)", good="data/img/0001.jpg",
     reference="§labels", examples="data")
rule("DN440", "label-layout-differs", W,
     summary="The label file exists only where another dialect looks: the images/ to labels/ "
             "rewrite differs between the forks.",
     darknet="The original Darknet replaces the first 'images' (and 'JPEGImages', 'raw') "
             "anywhere in the path by 'labels'; AlexeyAB's rewrites only the COCO and VOC "
             "folders (/images/train2017/, /JPEGImages/); hank-ai's never changes the folder. "
             "A data set laid out for one fork misses every label in another.",
     bad="data/images/a.jpg with data/labels/a.txt (--dialect alexeyab)",
     good="data/images/a.jpg with data/images/a.txt (--dialect alexeyab)",
     reference="§labels", examples="data",
     levels="a warning with no --dialect (each fork is described); with a dialect, the same "
            "image gets DN430 when that dialect finds nothing.")
rule("DN441", "list-blank-line", E,
     summary="A blank line in a train= or valid= list.",
     darknet="get_paths keeps it as an empty path. The original Darknet stops with \"Cannot "
             "load image \\\"\\\"\" when it draws it; hank-ai's stops too; AlexeyAB's draws "
             "again (\"Very small path to the image\"), and never ends when every line is "
             "blank.",
     bad="data/img/a.jpg\\n\\ndata/img/b.jpg", good="data/img/a.jpg\\ndata/img/b.jpg",
     reference="§labels", examples="data",
     levels="an error for the original Darknet and hank-ai's, and with no --dialect; a "
            "warning for AlexeyAB's, which draws another line.")
rule("DN442", "list-encoding", E,
     summary="A list starts with a byte order mark, or is UTF-16 or UTF-32 text.",
     darknet="get_paths reads bytes: a UTF-8 byte order mark becomes part of the first path, "
             "and UTF-16/32 text gives paths cut at the first zero byte. No image of such a "
             "list can be opened.",
     bad="\\xff\\xfed\\x00a\\x00t\\x00a\\x00 (UTF-16)", good="data/img/a.jpg (UTF-8, no BOM)",
     reference="§labels", examples="data")
rule("DN443", "list-duplicate-image", W,
     summary="The same image path is listed more than once.",
     darknet="get_random_paths draws lines, not images: a path listed twice is trained twice "
             "as often, and in train= and valid= both it inflates the mAP.",
     bad="data/img/a.jpg\\ndata/img/a.jpg", good="data/img/a.jpg", reference="§labels",
     examples="data")
rule("DN444", "listed-image-elsewhere", E,
     summary="A listed image exists only relative to the list's own folder (or the .data "
             "file's), not to the folder darknet is started from.",
     darknet="load_image opens each path as written, from the working directory: the original "
             "Darknet and hank-ai's stop at the first such image, AlexeyAB's appends it to "
             "bad.list and trains on a blank image.",
     bad="img/a.jpg in data/train.txt, the image at data/img/a.jpg",
     good="data/img/a.jpg in data/train.txt", reference="§labels", examples="data",
     levels="as DN420: a warning for AlexeyAB's Darknet, an error otherwise.")
rule("DN445", "class-without-boxes", W,
     summary="A class has no box in the train list, or far fewer than the others.",
     darknet="Nothing warns: the head learns that class from nothing (or from a handful of "
             "boxes), and its AP stays near zero.",
     bad="class 2 'bird': 0 boxes of 1,204", good="every class with a fair share of the boxes",
     reference="§labels", examples="data",
     levels="a warning for a class without a box; a note (info) for one with fewer than a "
            "tenth of the median class's boxes.")
rule("DN446", "classifier-label-match", E,
     summary="A classifier's image path contains no label, or more than one (as substrings).",
     darknet="fill_truth sets truth[i] for every label i that strstr finds anywhere in the "
             "path, and prints \"Too many or too few labels\" when that is not exactly one: "
             "the image trains with no class or with several. The original Darknet's, with "
             "one class (k = 1), takes a path without the label as a negative and prints "
             "nothing: not reported there.",
     bad="labels cat, bobcat; train/bobcat/1.jpg (two labels)",
     good="labels cat, lynx; train/lynx/1.jpg", reference="§labels", examples="data",
     dialects=(PJ, AB, AUTO))  # hank-ai's has no fill_truth: DN429
rule("DN447", "classifier-labels-file", E,
     summary="A classifier's labels file does not give exactly classes usable labels.",
     darknet="train_classifier reads classes= labels from labels= with get_labels: fewer lines "
             "than classes read past the end of the array; a blank line is a label that "
             "strstr finds in every path; a label inside another label matches both.",
     bad="classes=3, labels file: cat, dog", good="classes=2, labels file: cat, dog",
     reference="§labels", examples="data", dialects=(PJ, AB, AUTO),
     levels="an error for too few labels and a blank label; a warning for extra lines and a "
            "label inside another.")
rule("DN448", "max-boxes-not-truth-slot", E,
     summary="[yolo] max other than 90 ([region] other than 30) with a mini-batch above 1, in "
             "the original Darknet.",
     darknet="The loader packs max boxes per image into the truth rows, but make_yolo_layer "
             "reads each image's boxes 90 apart (make_region_layer 30 apart): from the second "
             "image of a mini-batch on, the head learns another image's boxes, or none.",
     bad=NET + MINI_BATCH_4 + HEAD_2 + "max=50\n", good=NET + MINI_BATCH_4 + HEAD_2,
     reference="§labels", dialects=(PJ,))
rule("DN449", "classifier-tree", E,
     summary="A classifier's tree= hierarchy does not fit its labels.",
     darknet="read_tree reads one 'name parent' per line and writes through each parent "
             "index: one at or past the number of lines writes outside the tree's arrays, and "
             "the original Darknet's also for a parent listed after its child (heap "
             "corruption, usually a crash). With fewer lines than classes= the tree's softmax "
             "leaves the last outputs at 0 (an inf loss) and fill_hierarchy reads parent[] "
             "past the tree; with more it reads and writes past the layer's arrays. Any "
             "negative parent is a root, but roots written with two numbers (-1 and -2) fall "
             "into different softmax groups. "
             "The original's train_classifier also reads tree= from the .data file, which "
             "replaces the cfg's; AlexeyAB's ignores that line.",
     bad="tree with 3 lines, classes=4", good="tree with 4 lines, classes=4",
     reference="§labels", examples="data")
