"""What each Darknet fork does with what the ``--check-labels`` passes find, in the words of
their findings (and a listed path as a finding shows it).
"""

from __future__ import annotations

from dnlint.dialects import Dialect


def plural(count: int, unit: str) -> str:
    return f"{count:,} {unit}" + ("" if count == 1 else "es" if unit == "box" else "s")


def shown(text: str) -> str:
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return shown if len(shown) <= 200 else shown[:200] + "..."


def missing_effect(dialect: Dialect | None) -> str:
    return {
        Dialect.PJ: "the original Darknet stops with \"Couldn't open file\" when it draws "
                    "this image",
        Dialect.HANK: "hank-ai's Darknet stops (\"failed to open annotation file\")",
        Dialect.AB: "AlexeyAB's Darknet appends it to bad.list and trains on the image as if "
                    "it had no objects",
    }.get(dialect, "the original Darknet and hank-ai's stop; AlexeyAB's trains on the image "  # type: ignore[arg-type]
                   "as if it had no objects")


def unreadable_effect(reason: str) -> str:
    if reason == "a directory":
        return "fopen succeeds on a directory and fscanf reads nothing: the image trains " \
               "as a negative"
    if reason.startswith("a FIFO"):
        return "the loader thread blocks on it until something writes to it"
    if reason == "a character device":
        return ("fscanf reads it and stops at its first byte that is not a number (/dev/zero: "
                "at once, so the image trains as a negative, silently); a device that waits for "
                "input blocks the loader thread")
    return "read_boxes cannot open it"


def class_effect(dialect: Dialect | None, negative: bool) -> str:
    ab = ("AlexeyAB's Darknet loads it and its [yolo] layer skips it with a warning" if negative
          else "AlexeyAB's Darknet skips the box (\"Wrong annotation\")")
    return {
        Dialect.PJ: "the original Darknet trains with it, writing past the head's class "
                    "outputs",
        Dialect.AB: ab,
        Dialect.HANK: "hank-ai's Darknet stops (\"invalid class ID\")",
    }.get(dialect, "AlexeyAB's Darknet skips the box, hank-ai's stops, the original "  # type: ignore[arg-type]
                   "trains with it past its arrays")


def zero_effect(dialect: Dialect | None) -> str:
    return {
        Dialect.PJ: "the original Darknet keeps the sentinel 999999 as a box and its [yolo] "
                    "layer writes far outside its outputs (a segmentation fault)",
        Dialect.AB: "AlexeyAB's Darknet skips it (\"Wrong annotation: x = 0, y = 0\")",
        Dialect.HANK: "hank-ai's Darknet stops (\"invalid coordinate\")",
    }.get(dialect, "AlexeyAB's Darknet skips it, hank-ai's stops, the original crashes")  # type: ignore[arg-type]


def coords_effect(dialect: Dialect | None, empty: bool) -> str:
    hank = ("hank-ai's Darknet stops (\"invalid coordinate\")" if empty else
            "hank-ai's Darknet clamps it to the image and drops what is left under a pixel")
    return {
        Dialect.PJ: "the original Darknet clips the box to the image and trains on what is "
                    "left (often nothing)",
        Dialect.AB: "AlexeyAB's Darknet skips it (\"Wrong annotation\") or clips w and h to 1",
        Dialect.HANK: hank,
    }.get(dialect, "AlexeyAB's Darknet skips or clips it; " + hank)  # type: ignore[arg-type]

