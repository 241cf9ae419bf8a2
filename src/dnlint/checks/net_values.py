"""Checks of [net] values that span several options (rows N1–N12, §silent-net)."""

from __future__ import annotations

import itertools

from dnlint.cnumbers import INT32_MAX
from dnlint.diagnostics import Severity, Sink
from dnlint.dialects import Dialect
from dnlint.options.convert import Values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def check_net(values: Values, dialect: Dialect, sink: Sink) -> None:
    for check in NET_CHECKS:
        check(values, dialect, sink)


def _report(values: Values, sink: Sink, code: str, key: str | None, message: str,
            hint: str | None = None, severity: Severity | None = None) -> None:
    line, column = values.line_of(key)
    sink.report(code, line, column, message, hint, severity)


def check_batch(values: Values, dialect: Dialect, sink: Sink) -> None:
    batch, subdivisions = values.int("batch"), values.int("subdivisions")
    if subdivisions <= 0:
        consequence = ("Darknet computes batch/subdivisions and dies of SIGFPE" if subdivisions == 0
                       else "the mini-batch batch/subdivisions is negative")
        _report(values, sink, "DN101", "subdivisions",
                f"subdivisions={subdivisions}: {consequence}", "use subdivisions >= 1")
        return
    if batch < 1:
        return  # out of range, reported by the option stage
    if subdivisions > batch:
        if dialect is Dialect.PJ:
            consequence = "the mini-batch is 0 and every buffer is empty"
            severity: Severity | None = None
        else:  # parse_net_options: a mini-batch below 1 becomes 1
            consequence = (f"{dialect.label} clamps the mini-batch to 1 and trains on "
                           f"{subdivisions} images per iteration, not {batch}")
            severity = Severity.WARNING
        _report(values, sink, "DN102", "subdivisions",
                f"subdivisions={subdivisions} is larger than batch={batch}: {consequence}",
                f"use subdivisions <= {batch}", severity)
    elif batch % subdivisions:
        _report(values, sink, "DN103", "subdivisions",
                f"batch={batch} is not a multiple of subdivisions={subdivisions}: Darknet trains "
                f"on {batch // subdivisions * subdivisions} images per batch, not {batch}")


def check_time_steps(values: Values, dialect: Dialect, sink: Sink) -> None:
    steps = values.int("time_steps")
    if not values.given("time_steps") or steps >= 1:
        return
    if dialect is Dialect.PJ:
        _report(values, sink, "DN104", "time_steps",
                f"time_steps={steps}: the original Darknet's batch becomes "
                f"{'0' if steps == 0 else 'negative'} and every recurrent layer divides by "
                "time_steps (SIGFPE)", "use time_steps >= 1")
    else:
        _report(values, sink, "DN104", "time_steps",
                f"time_steps={steps}: {dialect.label} silently uses 1 instead",
                "use time_steps >= 1", Severity.WARNING)


def check_inputs(values: Values, dialect: Dialect, sink: Sink) -> None:
    w, h, c = values.int("width"), values.int("height"), values.int("channels")
    if values.given("inputs"):
        inputs = values.int("inputs")
        if w and h and c and inputs != w * h * c:
            _report(values, sink, "DN105", "inputs",
                    f"inputs={inputs} but width*height*channels = {w}*{h}*{c} = {w * h * c}: the "
                    "flat and image views of the input disagree")
        return
    if not (w and h and c):
        missing = [k for k, x in (("width", w), ("height", h), ("channels", c)) if not x]
        _report(values, sink, "DN106", None,
                f"no input size: {', '.join(missing)} missing or 0 and no 'inputs'; Darknet stops "
                "with 'No input parameters supplied'",
                "set width, height and channels (or inputs for a vector network)")


def check_input_overflow(values: Values, dialect: Dialect, sink: Sink) -> None:
    """The root of every later overflow: parse_net computes net->h * net->w * net->c in int
    (the default of 'inputs'), and the first layer its l.inputs the same way. Reported on the
    size line to edit (the largest of the three); the layers' own overflows that follow are
    folded as consequences (checks.cascade: DN312 in [net] is a root)."""
    sizes = [(values.int(key), key) for key in ("width", "height", "channels")]
    w, h, c = (size for size, _ in sizes)
    if w <= 0 or h <= 0 or c <= 0 or w * h * c <= INT32_MAX:
        return
    _, key = max(sizes)
    product = w * h * c
    _report(values, sink, "DN312", key,
            f"width*height*channels = {w}*{h}*{c} = {product:,} overflows a 32-bit C int: "
            f"Darknet's input size wraps to {_wrapped(product):,} in parse_net and in the first "
            "layer, and every size computed from it is wrong",
            f"make width*height*channels at most {INT32_MAX:,}")


def _wrapped(value: int) -> int:
    """A C int's value after the arithmetic of ``value`` wrapped around (two's complement)."""
    return (value + 2**31) % 2**32 - 2**31


def check_crop_ratios(values: Values, dialect: Dialect, sink: Sink) -> None:
    """N6: [pj] divides max_crop/min_crop by width in float; width 0 gives NaN ratios."""
    if dialect is not Dialect.PJ or values.int("width"):
        return
    if values.given("max_crop") or values.given("min_crop") or values.given("height"):
        _report(values, sink, "DN107", "width",
                "width is 0 while the crop settings use it: the original Darknet's default "
                "max_ratio/min_ratio become NaN or inf (max_crop/width)",
                "set width (or drop height/max_crop/min_crop for a vector network)")


def check_policy(values: Values, dialect: Dialect, sink: Sink) -> None:
    policy = values.str("policy") or "constant"
    if policy in ("steps", "sgdr"):
        _check_steps(values, dialect, sink, required=policy == "steps")


def _check_steps(values: Values, dialect: Dialect, sink: Sink, required: bool) -> None:
    steps, scales = values.list("steps"), values.list("scales")
    if required and (steps is None or scales is None):
        missing = "steps" if steps is None else "scales"
        _report(values, sink, "DN108", "policy",
                f"policy=steps needs '{missing}'; Darknet stops with an error")
        return
    if steps is None or _misread(values, sink, "steps", "scales"):
        return  # the count and order only repeat how the list was misread
    if scales is not None and len(scales) != len(steps):
        fewer = len(scales) < len(steps)
        consequence = (
            ("hank-ai's Darknet pads the missing scales with 0, stopping learning"
             if dialect is Dialect.HANK else "Darknet reads the missing scale through a NULL "
             "pointer (segmentation fault)") if fewer else "Darknet ignores the extra scales")
        message = f"{len(steps)} steps but {len(scales)} scales: {consequence}"
        if fewer:
            _report(values, sink, "DN109", "scales", message, "give one scale per step")
        else:  # at the extra scales
            _report_item(values, sink, "DN109", "scales", len(steps), message,
                         "give one scale per step", last=len(scales) - 1)
    seq = values.list("seq_scales")
    if seq is not None and len(seq) < len(steps) and dialect is not Dialect.HANK:
        _report(values, sink, "DN109", "seq_scales",
                f"{len(steps)} steps but {len(seq)} seq_scales: Darknet reads the missing ones "
                "through a NULL pointer (segmentation fault)")
    _check_step_order(values, steps, sink)


def _misread(values: Values, sink: Sink, *keys: str) -> bool:
    """Whether the option stage already reported an error in one of these lists."""
    lines = {option.line for key in keys if (option := values.option(key)) is not None}
    return any(d.line in lines and d.code.startswith("DN2") and d.severity is Severity.ERROR
               for d in sink.items)


def _check_step_order(values: Values, steps: list[int], sink: Sink) -> None:
    for index, (before, after) in enumerate(itertools.pairwise(steps), 1):
        if after <= before:
            _report_item(values, sink, "DN110", "steps", index,
                         f"steps must increase: {after} follows {before}")
            return
    max_batches = values.int("max_batches")
    if steps and max_batches and steps[-1] > max_batches and not _misread(values, sink,
                                                                          "max_batches"):
        _report_item(values, sink, "DN110", "steps", len(steps) - 1,
                     f"the last step {steps[-1]} is after max_batches={max_batches}: it never "
                     "happens")


def _report_item(values: Values, sink: Sink, code: str, key: str, index: int,
                 message: str, hint: str | None = None, last: int | None = None) -> None:
    """A finding about item ``index`` of the list ``key`` (to item ``last`` when given): at
    those items as written."""
    span = values.item_span(key, index, last)
    if span is None:
        _report(values, sink, code, key, message, hint)
    else:
        line, column, end = span
        sink.report(code, line, column, message, hint, end=(line, end))


def check_contrastive(values: Values, dialect: Dialect, sink: Sink) -> None:
    if dialect is Dialect.PJ or not values.int("contrastive"):
        return
    batch, subdivisions = values.int("batch"), values.int("subdivisions")
    if subdivisions > 0 and batch // subdivisions < 2:
        _report(values, sink, "DN111", "contrastive",
                f"contrastive=1 needs a mini-batch of at least 2 (batch/subdivisions = "
                f"{batch}/{subdivisions}); AlexeyAB's Darknet stops with an error")


# parse_net_options reads these keys only under some policies; elsewhere they are ignored
# (and fatal in hank-ai's Darknet, which rejects every key it does not consume)
_POLICY_KEYS: dict[str, frozenset[str]] = {
    "step": frozenset({"step", "sigmoid"}),
    "scale": frozenset({"step"}),
    "steps": frozenset({"steps", "sgdr"}),
    "scales": frozenset({"steps", "sgdr"}),
    "seq_scales": frozenset({"steps", "sgdr"}),
    "gamma": frozenset({"exp", "sigmoid"}),
}


def check_ignored_by_settings(values: Values, dialect: Dialect, sink: Sink) -> None:
    policy = values.str("policy") or "constant"
    severity = Severity.ERROR if dialect is Dialect.HANK else None
    for key, policies in _POLICY_KEYS.items():
        if values.given(key) and policy not in policies:
            wanted = " or ".join(f"policy={p}" for p in sorted(policies))
            _report(values, sink, "DN112", key,
                    f"'{key}' is read only with {wanted}; with policy={policy} Darknet ignores "
                    "it" + _hank_note(dialect), f"remove '{key}' or change the policy",
                    severity)
    if not values.int("adam"):
        for key in ("B1", "B2", "eps"):
            if values.given(key):
                _report(values, sink, "DN112", key,
                        f"'{key}' is read only with adam=1; Darknet ignores it"
                        + _hank_note(dialect), "remove it or set adam=1", severity)


def _hank_note(dialect: Dialect) -> str:
    return " (hank-ai's Darknet stops: the key is unused)" if dialect is Dialect.HANK else ""


NET_CHECKS: tuple[Callable[[Values, Dialect, Sink], None], ...] = (
    check_ignored_by_settings,
    check_batch,
    check_time_steps,
    check_inputs,
    check_input_overflow,
    check_crop_ratios,
    check_policy,
    check_contrastive,
)
