"""What a cfg line's text looks like, as Darknet's reader sees it: its blanks deleted
(``strip``), an inline comment, a ``key = value`` whose blanks Darknet deletes harmlessly, a gap
that glues two words (and the finding it makes). Pure functions of one line, for the reader
(:mod:`.darknet_reader`).
"""

from __future__ import annotations

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.document import LexFinding


def darknet_strip(text: str) -> str:
    """Darknet's strip(): every space, tab, CR and LF deleted (three C-level passes are far
    cheaper than str.translate with a deletion table)."""
    return text.replace(" ", "").replace("\t", "").replace("\r", "").replace("\n", "")


def inline_comment_at(value: str) -> int:
    """Index of the '#', ';' or '//' that starts an inline comment (never the value's first
    character: '#1' is a value, however odd), or -1. Darknet itself has no inline comments;
    the typing stage decides whether the text before the marker is what Darknet reads."""
    if "#" not in value and ";" not in value and "//" not in value:
        return -1
    positions = [p for p in (value.find("#", 1), value.find(";", 1), value.find("//", 1)) if p > 0]
    return min(positions) if positions else -1


def joins_numbers(part: str, gap: int) -> bool:
    before = part[:gap].rstrip(" \t")[-1:]
    after = part[gap:].lstrip(" \t")[:1]
    return before.isdigit() and (after.isdigit() or after in "-.")


def value_column_of(text: str, raw_eq: int) -> int:
    if raw_eq < 0:
        return 1
    rest = text[raw_eq + 1 :]
    return raw_eq + 2 + (len(rest) - len(rest.lstrip(" \t")))


def spaced_option(text: str) -> tuple[str, str, int, int] | None:
    """``key = value`` or ``key=1, 2``: (key, value, key column, value column) when the line's
    whitespace lies only at its ends, around '=' and next to commas, where Darknet's strip()
    deletes it without gluing anything together; else ``None`` (the general path decides).

    Plain string operations, linear in the line: the regex this replaces backtracked
    exponentially on ``key= , , , ,#``.
    """
    eq = text.find("=")
    if eq <= 0:
        return None
    key = text[:eq].strip(" \t")
    if (not key or key[0] in "#;[" or key.startswith("//") or " " in key or "\t" in key
            or "\r" in key or "\n" in key):
        return None
    rest = text[eq + 1 :]
    body = rest.strip(" \t")
    if not body or "#" in body or ";" in body or "\r" in body or "\n" in body or "//" in body:
        return None
    value = body
    if " " in body or "\t" in body:
        for piece in body.split(","):
            inner = piece.strip(" \t")
            if " " in inner or "\t" in inner:
                return None  # whitespace inside an item: a gap the general path reports
        value = body.replace(" ", "").replace("\t", "")
    key_column = len(text) - len(text.lstrip(" \t")) + 1
    value_column = eq + 2 + len(rest) - len(rest.lstrip(" \t"))
    return key, value, key_column, value_column


# whitespace between two characters that are not separators: 'a b' is a gap, '1, 2' is not
_INNER_GAP = r"[^ \t,=][ \t]+[^ \t,=]"  # compiled when first used: a clean file has none


def inner_gap(part: str) -> int:
    """Index of whitespace between two non-separator characters, or -1 (``1, 2`` is fine)."""
    import re  # here: a clean run imports no re (start-up)
    match = re.search(_INNER_GAP, part.rstrip(" \t\r"))
    return match.start() + 1 if match else -1



def blank_finding(text: str, raw_eq: int, number: int) -> LexFinding | None:
    """L4: the blank inside a key or a value (the first found) that Darknet's strip() deletes,
    gluing the pieces together: two numbers glued into one (DN028), or anything else (DN010).
    ``raw_eq`` is the index of '=' in ``text`` (-1 for none)."""
    key_part = text[:raw_eq] if raw_eq >= 0 else text
    value_part = text[raw_eq + 1 :] if raw_eq >= 0 else ""
    cut = min((p for p in (value_part.find("#"), value_part.find(";"), value_part.find("//"))
               if p >= 0), default=-1)
    if cut >= 0:
        value_part = value_part[:cut]
    for part, offset in ((key_part, 0), (value_part, raw_eq + 1)):
        gap = inner_gap(part)
        if gap < 0:
            continue
        column = offset + gap + 1
        if joins_numbers(part, gap):
            left = part[:gap].rstrip(" \t").split(",")[-1].split()[-1]
            right = part[gap:].lstrip(" \t").split(",")[0].split()[0]
            return LexFinding(
                "DN028", number, column,
                f"'{left} {right}': Darknet deletes the space and reads the single number "
                f"'{left}{right}' (a missing comma?)",
                f"write '{left},{right}' if these are two numbers",
            )
        glued = darknet_strip(part)
        return LexFinding(
            "DN010", number, column,
            f"whitespace inside '{part.strip()}': Darknet deletes it and reads "
            f"'{glued}' (hank-ai's Darknet keeps it)",
            f"write '{glued}' if that is what you mean",
            by_dialect={Dialect.HANK: Severity.ERROR},
        )
    return None
