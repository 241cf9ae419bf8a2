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
