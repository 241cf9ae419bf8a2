"""DN7xx: the training recipe, opt-in (``--select DN7`` or ``recipe = true``).

AlexeyAB's README, "How to train (to detect your custom objects)" (step 1 of "Training Yolo v4
(and v3)") and "How to improve object detection": what a detector's cfg should say before
training. Not what Darknet refuses, so the family is off by default, like ruff's preview rules;
each rule cites the line of the README it checks (dnlint.checks.recipe).
"""

from dnlint.rules import W, rule

HOW_TO_TRAIN = ("AlexeyAB's README, 'How to train (to detect your custom objects)', step 1 of "
                "'Training Yolo v4 (and v3)'")
_HEAD = ("\n[convolutional]\nfilters=18\nactivation=linear\n\n[yolo]\nmask=0,1,2\n"
         "anchors=10,13, 16,30, 33,23\nnum=3\nclasses=1\n")


def recipe_cfg(net: str = "batch=64\nsubdivisions=16\nmax_batches=6000\npolicy=steps\n"
                          "steps=4800,5400\nscales=.1,.1\n", head: str = "") -> str:
    """A one-class detector that follows the recipe, with ``net`` as its training lines."""
    return ("[net]\nwidth=32\nheight=32\nchannels=3\n" + net
            + "\n[convolutional]\nfilters=16\n" + _HEAD + head)


GOOD = recipe_cfg()

rule("DN701", "recipe-max-batches", W,
     summary="max_batches is below the recipe's classes*2000 (and at least 6000).",
     darknet=f"{HOW_TO_TRAIN}: 'change line max_batches to (classes*2000, but not less than "
             "number of training images and not less than 6000)'. Darknet trains for as many "
             "iterations as it is told.",
     bad=recipe_cfg("batch=64\nsubdivisions=16\nmax_batches=2000\npolicy=steps\n"
                    "steps=1600,1800\nscales=.1,.1\n"),
     good=GOOD, reference="§training-recipe")
rule("DN702", "recipe-steps", W,
     summary="steps are not at 80% and 90% of max_batches.",
     darknet=f"{HOW_TO_TRAIN}: 'change line steps to 80% and 90% of max_batches, f.e. "
             "steps=4800,5400' (for max_batches=6000). Steps left from another max_batches "
             "decay the learning rate too early or too late (after max_batches: never, DN110).",
     bad=recipe_cfg("batch=64\nsubdivisions=16\nmax_batches=6000\npolicy=steps\n"
                    "steps=1600,1800\nscales=.1,.1\n"),
     good=GOOD, reference="§training-recipe")
rule("DN703", "recipe-no-max-batches", W,
     summary="A detector's cfg without max_batches: training stops before its first iteration.",
     darknet="parse_net_options reads max_batches with a default of 0, and train_detector loops "
             f"while the iteration is below it: it saves _final.weights at once. {HOW_TO_TRAIN} "
             "sets it to classes*2000, at least 6000. (A cfg meant only for detection needs "
             "none: hence opt-in.)",
     bad=recipe_cfg("batch=64\nsubdivisions=16\n"),
     good=GOOD, reference="§training-recipe")
rule("DN704", "recipe-batch", W,
     summary="batch is not the recipe's 64 (batch=1 is the testing value left in).",
     darknet=f"{HOW_TO_TRAIN}: 'change line batch to batch=64', 'subdivisions=16'. AlexeyAB's "
             "train_detector stops on batch=1 ('You set incorrect value batch=1 for "
             "Training!') and warns below 8; the stock cfgs' '# Testing' lines set batch=1.",
     bad=recipe_cfg("batch=1\nsubdivisions=1\nmax_batches=6000\npolicy=steps\n"
                    "steps=4800,5400\nscales=.1,.1\n"),
     good=GOOD, reference="§training-recipe")
rule("DN705", "recipe-random-memory", W,
     summary="random=1 on the last head: training resizes the network to a larger size than "
             "the cfg's, and needs more memory than its width and height suggest.",
     darknet="train_detector reads random from the last head and, every 10 iterations, "
             "resizes the network: AlexeyAB's to up to roundl(1.4*size/32+1)*32 (608 for 416), "
             "starting with the largest to check memory; the original's to 320..608. "
             "AlexeyAB's README, 'How to improve object detection', recommends random=1 for "
             "precision, and 'How to train': if 'Out of memory' occurs, increase subdivisions "
             "to 16, 32 or 64.",
     bad=recipe_cfg(head="random=1\n"), good=recipe_cfg(head="random=0\n"),
     reference="§training-recipe")
