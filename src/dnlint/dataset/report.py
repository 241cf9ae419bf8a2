"""The data set summary as text: one paragraph per list, then its classes as a table (the
JSON report carries the same dicts, ``dataset`` of the .data file's entry)."""

from __future__ import annotations

from typing import Any

# a table of more classes shows the flagged ones only (the JSON report has every class)
MAX_ROWS = 60
FLAG_TEXT = {"none": "<- none", "few": "<- few"}


def dataset_lines(summaries: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for summary in summaries:
        lines += _counts(summary)
        lines += _table(summary)
        lines.append("")
    return lines


def _counts(summary: dict[str, Any]) -> list[str]:
    head = f"{summary['list']} list {summary['path']}: {summary['images']:,} images"
    if summary["kind"] == "detector":
        negatives = summary["negatives"]
        unreadable = summary["unreadable_labels"]  # said only when there are: rare
        text = (f"{head}, {summary['labelled']:,} labelled, {negatives:,} "
                f"negative{'' if negatives == 1 else 's'}, {summary['missing_labels']:,} "
                f"without a label file, "
                + (f"{unreadable:,} with one that cannot be read, " if unreadable else "")
                + f"{summary['missing_images']:,} missing; {summary['boxes']:,} boxes")
        if summary["dropped_boxes"]:
            text += f" ({summary['dropped_boxes']:,} dropped by the loader)"
    else:
        text = (f"{head}, {summary['missing_images']:,} missing, {summary['not_a_class']:,} "
                "without exactly one label")
    extras = [f"{summary[key]:,} {what}{'' if summary[key] == 1 else 's'}" for key, what in
              (("blank_lines", "blank line"), ("duplicates", "duplicate")) if summary[key]]
    return [text + (f" ({', '.join(extras)})" if extras else "")]


def _table(summary: dict[str, Any]) -> list[str]:
    classes = summary["classes"]
    if not classes:
        return []
    unit = "boxes" if summary["kind"] == "detector" else "images"
    rows = classes
    note = ""
    past = summary.get("classes_not_listed")
    if past:  # classes= past MAX_CLASS_TABLE: counted in one number
        note = (f"  ({len(classes) + past['classes']:,} classes: too many to count one by one; "
                f"{past[unit]:,} of its {unit} in a class past the first {len(classes):,})")
        return [note]
    if len(classes) > MAX_ROWS:
        rows = [c for c in classes if c["flag"]][:MAX_ROWS]
        note = (f"  ({len(classes):,} classes: {'only the flagged ones are' if rows else 'none is'}"
                " shown here; --format json lists every one)")
    if not rows:
        return [note]
    width = max(4, min(30, max(len(c["name"]) for c in rows)))
    digits = max(len(unit), max(len(f"{c[unit]:,}") for c in rows))
    lines = [f"  {'id':>5}  {'name':<{width}}  {unit:>{digits}}"]
    for c in rows:
        flag = f"  {FLAG_TEXT[c['flag']]}" if c["flag"] else ""
        lines.append(f"  {c['id']:>5}  {c['name'][:width]:<{width}}  {c[unit]:>{digits},}{flag}")
    return lines + ([note] if note else [])
