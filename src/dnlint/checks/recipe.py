"""The training recipe (DN7xx): AlexeyAB's README, "How to train (to detect your custom
objects)" and "How to improve object detection", checked on a detector's cfg.

These are recommendations, not what Darknet refuses, so the family is off unless selected
(``--select DN7``, or ``recipe = true`` in the configuration: :mod:`dnlint.settings.policy`). Each
check runs only on a network with a box-predicting head ([yolo], [Gaussian_yolo], [region]):
the recipe is a detector's (§training-recipe).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dnlint.checks.head_agreement import head_of, heads, line_of
from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.read.darknet_reader import CfgDocument

if TYPE_CHECKING:
    from dnlint.network.build import Network
    from dnlint.network.layers.base import Layer

RECIPE_HEADS = ("yolo", "gaussian_yolo", "region")
README = "AlexeyAB's README, 'How to train (to detect your custom objects)'"
MIN_MAX_BATCHES = 6000
ITERATIONS_PER_CLASS = 2000
RECIPE_BATCH = 64
STEP_TOLERANCE = 0.01  # of max_batches: 4800 and 5400 for 6000, give or take 60


def check_recipe(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink,
                 train_images: int | None = None) -> None:
    """``train_images``: the length of the train list of the .data file given with the cfg,
    which max_batches must not be below either."""
    found = [layer for layer in heads(network) if layer.type in RECIPE_HEADS]
    if not found:
        return
    classes = head_of(found[0]).classes
    _check_max_batches(network, classes, train_images, sink)
    _check_steps(network, sink)
    _check_batch(network, sink)
    _check_random(network, found, dialect, sink)


def _recipe_max_batches(classes: int, train_images: int | None) -> int:
    return max(ITERATIONS_PER_CLASS * classes, MIN_MAX_BATCHES, train_images or 0)


def _check_max_batches(network: Network, classes: int, train_images: int | None,
                       sink: Sink) -> None:
    values = network.net_values
    wanted = _recipe_max_batches(classes, train_images)
    max_batches = values.int("max_batches")
    if not values.given("max_batches") or max_batches <= 0:
        line, column = values.line_of(None)
        sink.report("DN703", line, column,
                    f"no max_batches: Darknet's default is 0, so training saves _final.weights "
                    f"and stops before the first iteration ({README}: classes*2000, at least "
                    f"6000)", f"add max_batches={wanted}")
        return
    if max_batches < wanted:
        line, column = values.line_of("max_batches")
        images = f" and {train_images:,} training images" if train_images else ""
        sink.report("DN701", line, column,
                    f"max_batches={max_batches} is below {wanted} for classes={classes}{images} "
                    f"({README}: classes*2000, but not less than the number of training images "
                    "and not less than 6000)", f"set max_batches={wanted}")


def _check_steps(network: Network, sink: Sink) -> None:
    values = network.net_values
    max_batches = values.int("max_batches")
    steps = values.list("steps")
    if values.str("policy") != "steps" or max_batches <= 0 or not steps:
        return
    wanted = (math.floor(0.8 * max_batches), math.floor(0.9 * max_batches))
    last = tuple(steps[-2:])
    tolerance = STEP_TOLERANCE * max_batches
    if len(last) == 2 and all(abs(have - want) <= tolerance for have, want in zip(last, wanted,
                                                                                   strict=True)):
        return
    line, column = values.line_of("steps")
    given = ",".join(str(step) for step in steps)
    sink.report("DN702", line, column,
                f"steps={given} are not at 80% and 90% of max_batches={max_batches} ({README})",
                f"set steps={wanted[0]},{wanted[1]}")


def _check_batch(network: Network, sink: Sink) -> None:
    values = network.net_values
    batch = values.int("batch")
    if batch == RECIPE_BATCH:
        return
    line, column = values.line_of("batch")
    if batch == 1:
        message = ("batch=1 is the testing value: AlexeyAB's train_detector stops with 'You set "
                   "incorrect value batch=1 for Training!'")
    else:
        message = f"batch={batch}, not the recipe's batch=64"
    sink.report("DN704", line, column, f"{message} ({README}: batch=64, subdivisions=16)",
                "set batch=64 and subdivisions=16 (32 or 64 if memory runs out)")


def _check_random(network: Network, found: list[Layer], dialect: Dialect, sink: Sink) -> None:
    """Only the last head's random decides (train_detector's ``l``)."""
    last = found[-1]
    values = last.values
    if values is None or not values.given("random") or not values.float("random"):
        return
    net = network.net
    if dialect is Dialect.PJ:
        size = "sizes from 320x320 to 608x608 (608x608 for the last 200 iterations)"
        factor = (608 * 608) / max(net.width * net.height, 1)
    else:
        coefficient = values.float("random")
        coefficient = 1.4 if coefficient == 1.0 else coefficient
        step = network.net_values.float("resize_step")
        width = _resized(coefficient, net.width, step)
        height = _resized(coefficient, net.height, step)
        size = (f"sizes up to {width}x{height}, which it starts with to check that memory "
                "suffices")
        factor = (width * height) / max(net.width * net.height, 1)
    line, column = line_of(last, "random")
    sink.report("DN705", line, column,
                f"random={values.float('random'):g} resizes the network every 10 iterations to "
                f"{size}: about "
                f"{factor:.1f}x the memory of the configured {net.width}x{net.height} (AlexeyAB's "
                "README: if 'Out of memory' occurs, increase subdivisions to 16, 32 or 64)",
                "raise subdivisions, or set random=0 if memory is short")


def _resized(coefficient: float, size: int, step: float) -> int:
    """max_dim_w of train_detector: roundl(coef * size / resize_step + 1) * resize_step."""
    if step <= 0:
        return size
    return int(_round_half_away(coefficient * size / step + 1) * step)


def _round_half_away(value: float) -> float:
    """C's roundl: halves away from zero."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)
