"""Training resumed from a weights file: the iteration its header's ``seen`` stands for.

train_detector loops ``while (iteration < max_batches)``, and the iteration of a loaded file is
``seen / (batch * subdivisions)`` (the original's get_current_batch, with its ``net->batch``
being the mini-batch times time_steps; AlexeyAB's load_weights sets cur_iteration to the same
quotient). A file already at or past max_batches makes training save ``_final.weights`` and
stop at once, unless ``-clear`` resets ``seen`` to 0 (§training-resume).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from dnlint.diagnostics import Diagnostic, new_diagnostic

if TYPE_CHECKING:
    from dnlint.network.build import Network
    from dnlint.weights.header import Header


_PARTIAL = re.compile(r"\.conv\.\d+\Z")  # darknet partial's output: yolov4.conv.137


def resumed_iteration(network: Network, seen: int) -> int | None:
    """The iteration training resumes at from ``seen`` (None when the cfg's batch makes it
    undefined: a mini-batch of 0 is its own error)."""
    subdivisions = network.net_values.int("subdivisions")
    divisor = network.net.batch * subdivisions
    if divisor <= 0:
        return None
    return seen // divisor


def check_resume(network: Network, header: Header, cfg_path: str,
                 weights_path: str) -> list[Diagnostic]:
    """DN524 at max_batches when ``header``'s seen already reaches it (only for a file that
    has trained, seen > 0, and a cfg that sets max_batches: without it no file trains, which
    is the cfg's own matter, DN703)."""
    if header.seen <= 0 or header.is_absurd() or not network.net_values.given("max_batches"):
        return []
    iteration = resumed_iteration(network, header.seen)
    values = network.net_values
    max_batches = values.int("max_batches")
    if iteration is None or iteration < max_batches:
        return []
    line, column = values.line_of("max_batches")
    name = os.path.basename(weights_path)
    partial = (" (a partial backbone made by 'darknet partial' has seen=0: this one kept the "
               "count of the model it was cut from)" if _PARTIAL.search(name) else "")
    return [new_diagnostic(
        "DN524", line, column,
        f"{name} has seen {header.seen:,} images, iteration {iteration:,} at batch="
        f"{values.int('batch')}, and the cfg has max_batches={max_batches}: training from it "
        f"saves _final.weights and stops at once{partial}",
        f"add -clear to the darknet command to train from iteration 0, or raise max_batches "
        f"above {iteration:,}", cfg_path)]
