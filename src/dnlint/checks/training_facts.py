"""What a training job's cfg tells the loader: the kind of job, the classes and the box limit
of the head train_detector reads, and the network size (the smallest box it keeps)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dnlint.dialects import Dialect

if TYPE_CHECKING:
    from dnlint.network.build import Network

# the layers train_detector takes its classes and max from (AlexeyAB's: the last of these;
# the original's: the network's last layer)
HEAD_TYPES = ("yolo", "gaussian_yolo", "region")


@dataclass(frozen=True)
class TrainingFacts:
    """``kind`` is "detector" or "classifier"; the rest is None when the cfg does not say."""

    kind: str
    dialect: Dialect
    cfg: str = ""
    classes: int | None = None
    max_boxes: int | None = None
    width: int | None = None
    height: int | None = None
    tree: str | None = None  # a classifier's [softmax] tree= file, as written


def training_facts(network: Network, dialect: Dialect, cfg: str) -> TrainingFacts | None:
    """The facts of a cfg that builds; None when it has no layer a job could train."""
    layers = [layer for layer in network.layers.built()]
    if not layers or any(layer.broken for layer in layers):
        return None
    heads = [layer for layer in layers if layer.type in HEAD_TYPES and layer.values is not None]
    width, height = network.net.width, network.net.height
    if heads:
        last = heads[-1] if dialect is not Dialect.PJ else layers[-1]
        if last.values is None or last.type not in HEAD_TYPES:
            return TrainingFacts("detector", dialect, cfg, width=width, height=height)
        return TrainingFacts("detector", dialect, cfg, last.values.int("classes"),
                             last.values.int("max"), width, height)
    tree = None
    for layer in layers:
        if layer.type == "softmax" and layer.values is not None:
            tree = layer.values.str("tree") or tree
    return TrainingFacts("classifier", dialect, cfg, layers[-1].output[2] or None,
                         width=width, height=height, tree=tree)
