"""The cycle collector, paused while files are linted and run where little is alive.

Used by the pipeline (:mod:`dnlint.pipeline`) around each lint, and by a run between files.
"""

from __future__ import annotations

import gc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["GcPause", "collect_young_garbage", "cycle_gc_paused"]


def cycle_gc_paused() -> GcPause:
    """Pause the cycle collector while files are linted (nested uses are free).

    A lint builds many small acyclic objects (options, layers, blocks) that reference counting
    frees as soon as the file's result is dropped; the cycle collector would only rescan them,
    which doubled the time of a 100k-layer cfg, and a run that re-enabled it for each report
    paid a rescan of the whole result (about 35 µs on the median stock cfg).

    What a pause must not do is keep garbage that only the collector frees: a report leaves
    reference cycles (the pure-Python JSON encoder's closures, 33 objects a ``json.dumps``
    with ``indent``), and a run of thousands of files would pile them up. The value yielded
    is :func:`collect_young_garbage` (a no-op in a nested use, or when the collector was off
    already), for the caller to run where little is alive: between two files.
    """
    return GcPause()


class GcPause:
    """:func:`cycle_gc_paused`'s context manager: the collector put back as it was (on or off)
    on every way out. (A class: contextlib's import is start-up, issue 35.)"""

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> Callable[[], None]:
        self._was_enabled = gc.isenabled()
        gc.disable()
        return collect_young_garbage if self._was_enabled else _no_collection

    def __exit__(self, *exc_info: object) -> None:
        if self._was_enabled:
            gc.enable()


def collect_young_garbage() -> None:
    """Free the reference cycles the last file left, and age the rest as the collector would.

    Run between files, the youngest generation is only what the last file left (its result is
    freed), so collecting it scans little (well under a microsecond when it is empty) and is
    done every time. Waiting for its count to pass the threshold, as the collector does, kept a
    report's cycles past the next file, or longer: the count is allocations minus
    deallocations, and the deallocations of older objects (the previous job, evicted cache
    entries) cancel out what a report left. The older generations follow the collector's own
    rule: when the youngest count passes its threshold, the oldest generation whose count
    passed its threshold too.
    """
    young, middle, old = gc.get_count()
    first, second, third = gc.get_threshold()
    if not first:  # gc.set_threshold(0): automatic collection is off
        return
    if young <= first or middle <= second:
        gc.collect(0)
    elif old <= third or not third:
        gc.collect(1)
    else:
        gc.collect(2)


def _no_collection() -> None:
    pass
