"""DN12x: the memory the network will take (dnlint.checks.memory, from dnlint.network.memory)."""

from __future__ import annotations

from dnlint.rules import E, W, rule

rule("DN120", "layer-memory-beyond-card", W,
     summary="One layer alone needs more GPU memory to train than a 16 GiB card holds, even "
             "at mini-batch 1.",
     darknet="Darknet allocates every layer's output, delta and batch-norm arrays for the "
             "mini-batch when it builds the network; a layer this large stops the run with "
             "an out-of-memory error before the first iteration, or trains nowhere. The "
             "largest layer of any stock cfg needs about 3 GiB at mini-batch 1: this size is "
             "almost always a typo in filters= or in the input size.",
     bad="[net]\nwidth=1024\nheight=1024\nchannels=3\n\n[convolutional]\nfilters=2000\n"
         "batch_normalize=1\n",
     good="[net]\nwidth=1024\nheight=1024\nchannels=3\n\n[convolutional]\nfilters=20\n"
          "batch_normalize=1\n",
     reference="§memory")
rule("DN121", "gpu-memory-budget", W,
     summary="Training needs more GPU memory at the cfg's mini-batch than --gpu-memory says "
             "the card has (the example: with --gpu-memory 8G).",
     darknet="Darknet allocates the whole network for the mini-batch batch/subdivisions (and, "
             "with random=1 in a head, at the largest size it resizes to) and stops with an "
             "out-of-memory error when the card cannot hold it. The message gives the "
             "subdivisions that fits. The figure is an estimate: cuDNN's workspace and the "
             "CUDA context (a few hundred MiB) are not known before the run.",
     bad="[net]\nbatch=64\nsubdivisions=1\nwidth=608\nheight=608\nchannels=3\n\n"
         "[convolutional]\nfilters=64\nbatch_normalize=1\n",
     good="[net]\nbatch=64\nsubdivisions=16\nwidth=608\nheight=608\nchannels=3\n\n"
          "[convolutional]\nfilters=64\nbatch_normalize=1\n",
     reference="§memory", examples="none")
rule("DN122", "batch-array-int-overflow", E,
     summary="A layer's output at the cfg's mini-batch has more floats than a 32-bit C int "
             "counts.",
     darknet="Darknet sizes each output and delta array as l.batch * l.outputs in int: "
             "beyond 2,147,483,647 the product wraps, and the training build fails to "
             "allocate or allocates too little and writes past it.",
     bad="[net]\nbatch=64\nsubdivisions=1\nwidth=1024\nheight=1024\nchannels=3\n\n"
         "[convolutional]\nfilters=64\n",
     good="[net]\nbatch=64\nsubdivisions=4\nwidth=1024\nheight=1024\nchannels=3\n\n"
          "[convolutional]\nfilters=64\n",
     reference="§memory, §arithmetic")
rule("DN123", "beyond-common-card", W,
     summary="Training at the cfg's mini-batch needs more GPU memory than the largest common "
             "training card (80 GiB), and no card size is known.",
     darknet="Darknet allocates the whole network for the mini-batch batch/subdivisions on "
             "each GPU it trains on (-gpus gives every card a mini-batch of its own; nothing "
             "splits a network across cards), so a run that needs more than the card stops "
             "with an out-of-memory error before the first iteration. 80 GiB is the memory of "
             "the largest cards commonly used to train (NVIDIA A100 80GB and H100 80GB): "
             "beyond it no common card runs the cfg, almost always a subdivisions too small "
             "for the batch. Reported when neither --gpu-memory, gpu-memory in the "
             "configuration, nor nvidia-smi (--gpu-memory auto, or a training job) gives the "
             "card, which DN121 then compares with instead. An estimate, as DN121's.",
     bad="[net]\nbatch=256\nsubdivisions=1\nwidth=608\nheight=608\nchannels=3\n"
         + "\n[convolutional]\nfilters=16\nbatch_normalize=1\n" * 5,
     good="[net]\nbatch=256\nsubdivisions=4\nwidth=608\nheight=608\nchannels=3\n"
          + "\n[convolutional]\nfilters=16\nbatch_normalize=1\n" * 5,
     reference="§memory",
     stock="AlexeyAB's cspx-p7-mish.cfg (≈157 GiB at mini-batch 8) and yolov4-p6.cfg (≈87 "
           "GiB) need more than an 80 GiB card by the estimate: as shipped they train on no "
           "common card, and the hint gives the subdivisions that does.")
rule("DN124", "batch-in-testing-block", W,
     summary="The active batch is written under '# Testing' while the '# Training' values are "
             "commented out (a training batch in the testing block; in a training job, "
             "batch=1 left active).",
     darknet="The stock cfgs open [net] with a '# Testing' block (batch=1, subdivisions=1) "
             "and a '# Training' block (batch=64, subdivisions=16 or so), one of them "
             "commented out. Darknet reads whichever lines are active: a training batch "
             "written into the testing block trains with the testing subdivisions (a "
             "mini-batch of the whole batch, which rarely fits a card), and batch=1 left "
             "active makes AlexeyAB's train_detector stop ('You set incorrect value batch=1 "
             "for Training!') and the original train one image at a time. A batch above 1 in "
             "the testing block is reported by every lint when it makes the mini-batch larger "
             "than the commented-out training values would (no subdivisions at all is DN113), "
             "batch=1 only when a .data file is checked with the cfg (a training job: the "
             "stock cfgs ship batch=1 active for detector test). The finding is at the value "
             "to edit.",
     bad="[net]\n# Testing\nbatch=64\nsubdivisions=1\n# Training\n#batch=64\n#subdivisions=16\n"
         "width=416\nheight=416\nchannels=3\n\n[convolutional]\nfilters=16\n",
     good="[net]\n# Testing\n#batch=1\n#subdivisions=1\n# Training\nbatch=64\nsubdivisions=16\n"
          "width=416\nheight=416\nchannels=3\n\n[convolutional]\nfilters=16\n",
     reference="§memory")
