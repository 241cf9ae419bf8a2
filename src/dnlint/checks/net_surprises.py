"""[net] values whose default or comparison surprises (§net-defaults): the whole batch in one
pass when subdivisions is left out (DN113), and a step the original Darknet never reaches
(DN114)."""

from __future__ import annotations

from dnlint.diagnostics import Sink
from dnlint.dialects import Dialect
from dnlint.read.darknet_reader import CfgDocument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dnlint.network.build import Network


def check_whole_batch(network: Network, doc: CfgDocument, dialect: Dialect, sink: Sink) -> None:
    """batch > 1 and no subdivisions: parse_net_options's default of 1 makes the mini-batch the
    whole batch, so every layer's outputs (and deltas) are allocated for all of it."""
    values = network.net_values
    batch = values.int("batch")
    if batch <= 1 or values.given("subdivisions") or not values.given("batch"):
        return
    line, column = values.line_of("batch")
    commented = _commented_out(doc, "subdivisions")
    said = (f" (subdivisions is commented out at line {commented})" if commented
            else "")
    sink.report("DN113", line, column,
                f"batch={batch} with no subdivisions{said}: Darknet's default is "
                f"subdivisions=1, so all {batch} images go through the network in one pass, "
                f"with memory for {batch} images in every layer",
                "add subdivisions= (AlexeyAB's README suggests 16, or 32/64 when memory runs "
                "out), or subdivisions=1 if one pass is meant")


def _commented_out(doc: CfgDocument, key: str) -> int | None:
    """The line of the last '#key=' (or ';key=') comment inside the [net] section, if any
    (the training value: the '# Testing' one comes first in the stock cfgs)."""
    sections = doc.sections
    end = sections[1].line if len(sections) > 1 else None
    start = sections[0].line if sections else 0
    found = None
    for line, text in doc.comments.within(start, end):
        text = text.lstrip("#; \t").replace(" ", "").replace("\t", "")
        if text.startswith(key + "="):
            found = line
    return found


def check_unreached_steps(network: Network, doc: CfgDocument, dialect: Dialect,
                          sink: Sink) -> None:
    """get_current_rate compares each step with the current iteration: a size_t in the original
    Darknet, so a negative step converts to a huge number that is never reached: that step and
    every later one do nothing. The forks compare ints, where steps=-1,100 with scales=.1,10 is
    a deliberate warm-up (the stock yolov2-tiny cfgs): nothing to say there."""
    if dialect is not Dialect.PJ:
        return
    values = network.net_values
    if values.str("policy") != "steps":
        return
    steps = values.list("steps")
    negative = next((index for index, step in enumerate(steps or ()) if step < 0), None)
    if steps is None or negative is None:
        return
    span = values.item_span("steps", negative)
    line, column = values.line_of("steps") if span is None else span[:2]
    end = None if span is None else (line, span[2])
    later = len(steps) - negative - 1
    also = (" (nor the step after it)" if later == 1
            else f" (nor the {later} steps after it)" if later else "")
    sink.report("DN114", line, column,
                f"step {steps[negative]} is never reached{also}: the original Darknet compares "
                "steps with an unsigned iteration, where a negative step is a huge number, so "
                "the learning rate never changes from there on",
                "use iteration numbers between 0 and max_batches (AlexeyAB's Darknet reads a "
                "negative step as 'from the start')", end=end)


