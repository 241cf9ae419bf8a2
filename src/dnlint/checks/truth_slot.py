"""DN448: the original Darknet's truth rows, written max boxes apart and read 90 apart.

train_detector loads ``l.max_boxes`` boxes per image (``args.num_boxes`` of the last layer),
so get_next_batch packs each image's truth ``5 * max`` floats apart; forward_yolo_layer reads
image ``b`` at ``b * l.truths``, and make_yolo_layer fixes ``l.truths`` at ``90 * 5``
(make_region_layer at ``30 * (coords + 1)``). With one image per mini-batch the two agree
whatever max is; from the second image on they do not. max above the slot is DN405.
"""

from __future__ import annotations

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dnlint.network.build import Network

SLOTS = {"yolo": 90, "region": 30}


def check_truth_stride(network: Network, doc: CfgDocument, dialect: Dialect,
                       sink: Sink) -> None:
    if dialect is not Dialect.PJ or not network.layers:
        return
    last = network.layers[-1]
    slot = SLOTS.get(last.type)
    if slot is None or last.values is None or last.broken or network.net.batch <= 1:
        return
    boxes = last.values.int("max")
    if boxes >= slot:
        return  # equal: they agree; above: DN405
    line, column = last.values.line_of("max")
    sink.report("DN448", line, column,
                f"max={boxes} with {network.net.batch} images per mini-batch: the original "
                f"Darknet loads {boxes} boxes per image but this [{last.section_name}] reads "
                f"each image's boxes {slot} apart, so from the second image on it learns "
                "another image's boxes, or none",
                f"remove max= (the original's default is {slot}), or use max={slot}")
