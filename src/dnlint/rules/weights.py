"""DN5xx: .weights files and how Darknet's loaders read them.

DN501-DN509 are about the cfg alone (what a .weights file for it must look like); DN510-DN519
about an actual file's size and header (no payload read); DN520-DN529 about its values
(``--scan``). The W-numbers are the rows of §silent-weights.
"""

from dnlint.rules import CONV, NET, PJ, E, I, W, rule

# --- the cfg: what load_weights and save_weights do with it --------------------------------------
rule("DN501", "numload-out-of-range", E,
     summary="numload is negative or larger than filters (original Darknet).",
     darknet="load_convolutional_weights reads numload filters into arrays sized for filters: a "
             "heap overflow, or a huge read for a negative value.",
     bad=NET + CONV + "numload=32\n",
     good=NET + CONV + "numload=8\n",
     reference="W3",
     dialects=(PJ,))
rule("DN502", "deconvolutional-unloadable", E,
     summary="A [deconvolutional] layer that load_weights visits (original Darknet).",
     darknet="load_weights_upto hands the layer to load_convolutional_weights, which divides the "
             "channels by l.groups; deconvolutional layers never set it (0): SIGFPE. "
             "save_weights writes the layer fine, so the file cannot be read back.",
     bad=NET + "\n[deconvolutional]\nfilters=16\nsize=4\nstride=2\n",
     good=NET + "\n[deconvolutional]\nfilters=16\nsize=4\nstride=2\ndontload=1\n",
     reference="W1",
     dialects=(PJ,))
rule("DN503", "unknown-layer-crashes-loader", E,
     summary="An unknown section becomes a zeroed layer that crashes load_weights "
             "(original Darknet).",
     darknet="The zeroed layer has type 0 (CONVOLUTIONAL) and groups 0; load_weights_upto calls "
             "load_convolutional_weights on it, which divides by groups: SIGFPE.",
     bad=NET + "\n[convolutionnal]\nfilters=16\n",
     good=NET + CONV, reference="W2",
     dialects=(PJ,),
     examples="weights")
rule("DN504", "dontloadscales-misaligns", W,
     summary="dontloadscales on a batch-normalized layer: the loader skips floats the saver "
             "wrote.",
     darknet="save_weights writes scales, rolling mean and rolling variance; load_weights with "
             "dontloadscales does not read them, so it reads them as the next weights and every "
             "later layer is shifted by 3*n floats.",
     bad=NET + ("\n[convolutional]\nbatch_normalize=1\nfilters=32\ndontloadscales=1\n\n"
                "[convolutional]\nfilters=16\n"),
     good=NET + ("\n[convolutional]\nbatch_normalize=1\nfilters=32\n\n"
                 "[convolutional]\nfilters=16\n"), reference="W4")
rule("DN505", "dontload-misaligns", W,
     summary="dontload on a layer with weights that the saver still writes, before other "
             "layers that load.",
     darknet="load_weights skips the layer without skipping its bytes, so the next layers read "
             "this layer's weights; save_weights still writes it (AlexeyAB's has no dontsave).",
     bad=NET + "\n[convolutional]\nfilters=32\ndontload=1\n\n[convolutional]\nfilters=16\n",
     good=NET + CONV + "\n[convolutional]\nfilters=32\ndontload=1\n",
     reference="W5")
rule("DN506", "dontsave-misaligns", W,
     summary="dontsave without dontload on a layer with weights (original Darknet).",
     darknet="save_weights skips the layer but load_weights still reads it, so a file this cfg "
             "writes does not load back with the same cfg.",
     bad=NET + "\n[convolutional]\nfilters=32\ndontsave=1\n",
     good=NET + "\n[convolutional]\nfilters=32\ndontsave=1\ndontload=1\n", reference="W5",
     dialects=(PJ,))

# --- an actual file: stat + header only ------------------------------------------------------
rule("DN510", "weights-too-short-for-header", E,
     summary="The file is shorter than the 12-byte version header (or than its seen field).",
     darknet="The original Darknet checks no fread: the version fields stay uninitialised and "
             "it loads random weights. AlexeyAB's stops at EOF without an error.",
     bad="a 0-byte model.weights (an interrupted download)",
     good="the complete file", reference="W9",
     examples="weights")
rule("DN511", "weights-header-impossible", E,
     summary="The version header holds negative or absurd numbers: this is not a Darknet "
             "weights file, or it has lost its header.",
     darknet="load_weights believes any header; absurd versions also decide whether seen is read "
             "as 4 or 8 bytes, so every float after it is read from the wrong offset.",
     bad="major=1065353216 (the bits of the float 1.0: a header-less dump)",
     good="major=0, minor=2, revision=0 or 5", reference="W9",
     examples="weights")
rule("DN512", "weights-header-transposed", W,
     summary="major or minor is 1000 or more: the forks disagree on the header length and "
             "connected weights are transposed.",
     darknet="Both forks transpose connected matrices when major or minor > 1000. The original "
             "Darknet then reads a 4-byte seen (16-byte header), AlexeyAB's an 8-byte one (20).",
     bad="major=0, minor=1001", good="major=0, minor=2", reference="W8",
     examples="weights")
rule("DN513", "not-a-weights-file", E,
     summary="The file is something else renamed .weights (Git LFS pointer, HTML page, zip, "
             "PyTorch, HDF5, ONNX, ...).",
     darknet="load_weights reads any bytes as a header and float32 values; it does not notice.",
     bad="model.weights containing 'version https://git-lfs.github.com/spec/v1'",
     good="git lfs pull (or download the real file)", reference="W6, W9",
     examples="weights")
rule("DN514", "weights-truncated", E,
     summary="The file ends inside a layer's record, or right after its header (no weights).",
     darknet="The original Darknet leaves the rest of the parameters at their random initial "
             "values and still prints 'Done!'; AlexeyAB's stops at EOF without an error; "
             "hank-ai's refuses the file.",
     bad="a 20 MB prefix of a 35 MB yolov3-tiny.weights", good="the complete file",
     reference="W6",
     examples="weights")
rule("DN515", "weights-partial", W,
     summary="The file ends exactly on a layer boundary before the last layer with weights: a "
             "pretrained backbone (like yolov4.conv.137).",
     darknet="Layers after the end keep their random initial weights (AlexeyAB's stops at EOF "
             "without a message); hank-ai's refuses a short file.",
     bad="darknet53.conv.74 with yolov3.cfg for inference",
     good="darknet53.conv.74 with yolov3.cfg to start training", reference="W6",
     examples="weights",
     levels="a warning for the original and AlexeyAB's Darknet, which load a partial file (a "
            "pretrained backbone) and leave the rest as initialised; an error with --dialect "
            "hank, whose loader reads only whole files.")
rule("DN516", "weights-surplus", E,
     summary="The file is longer than what load_weights reads for this cfg.",
     darknet="The original Darknet and AlexeyAB's ignore trailing bytes; hank-ai's refuses the "
             "file. Surplus bytes almost always mean the cfg and the file disagree (classes, "
             "filters, a load flag), so the weights that did load are misplaced too.",
     bad="yolov3.weights (80 classes) with a 20-class yolov3-voc.cfg",
     good="the weights trained with this very cfg", reference="W7",
     examples="weights")
rule("DN517", "weights-other-fork", W,
     summary="The header names the other fork as the writer, and this cfg has layers whose "
             "layout differs between the forks.",
     darknet="[batchnorm] stores 3*c floats in the original and 4*c in AlexeyAB's; [rnn], [gru] "
             "and [lstm] differ in size or sub-record order. Neither loader can tell.",
     bad="revision 5 (AlexeyAB's) read with --dialect pjreddie on a cfg with [batchnorm]",
     good="--dialect alexeyab", reference="W10",
     examples="weights")

rule("DN518", "weights-not-checked", I,
     summary="A weights file was given, but its cfg does not build a network to compare it with.",
     darknet="Not a Darknet behaviour: fix the cfg's errors first.",
     bad="dnlint broken.cfg --weights model.weights", good="dnlint fixed.cfg --weights "
     "model.weights", reference="dnlint",
     examples="weights")
rule("DN519", "weights-without-cfg", E,
     summary="A weights file whose cfg cannot be found: nothing to check it against.",
     darknet="Not a Darknet behaviour: the weights are only meaningful with the cfg they were "
             "trained with. dnlint pairs model.weights (model_best, model_final, model_last, "
             "model_1000, model.conv.74) with model.cfg beside it or given on the same command "
             "line; when none or several match, name it with --cfg. Exit status 2.",
     bad="dnlint orphan.weights", good="dnlint orphan.weights --cfg model.cfg", reference="dnlint",
     examples="weights")

# --- values (--scan) -------------------------------------------------------------------------
rule("DN520", "weights-nan-inf", E,
     summary="NaN or infinite values in a layer's weights.",
     darknet="Loaded as they are: every output that depends on them becomes NaN, so the network "
             "detects nothing. Usually a diverged training run.",
     bad="a block of 1024 floats with 3 NaN", good="weights from before the divergence",
     reference="dnlint --scan",
     examples="weights")
rule("DN521", "weights-all-zero", W,
     summary="A layer's weights (or batch-norm scales) are all exactly zero.",
     darknet="Loaded as they are: the layer outputs a constant. Usually a file that was "
             "preallocated or written sparse and never filled.",
     bad="a 3x3x256x512 weights block of zeros", good="trained weights", reference="dnlint --scan",
     examples="weights")
rule("DN522", "weights-bn-variance", W,
     summary="A batch-norm rolling_variance is zero or negative.",
     darknet="normalize_cpu divides by sqrt(variance) (plus a tiny epsilon): a negative variance "
             "gives NaN, a zero one a huge factor.",
     bad="rolling_variance containing -0.5", good="positive variances",
     reference="dnlint --scan",
     examples="weights")
rule("DN523", "weights-absurd-magnitude", W,
     summary="Values of absurd magnitude (|x| > 1e6) in a layer's weights.",
     darknet="Loaded as they are: activations overflow to inf. Usually a misaligned read or a "
             "diverged run.", bad="weights of 3e+28", good="weights within a few units",
     reference="dnlint --scan",
     examples="weights")
rule("DN524", "weights-past-max-batches", W,
     summary="The weights file has already trained max_batches iterations or more: training "
             "from it stops at once.",
     darknet="train_detector resumes at iteration seen / (batch * subdivisions), read from the "
             "header, and loops while it is below max_batches: it saves _final.weights and "
             "exits without training. -clear resets seen to 0. Typical when fine-tuning a full "
             "trained model (yolov4.weights is at iteration 500,208) with a custom cfg's "
             "max_batches=6000.",
     bad="yolov4.weights (seen 32,013,312) with batch=64, max_batches=6000",
     good="the same with -clear, or yolov4.conv.137 (seen 0)", reference="§training-resume",
     examples="weights")
