"""Making untrusted text safe to show: cfg text, file names and config keys reach terminals,
CI logs and XML, where a control character can move the cursor, set the window title or end a
document.

Two treatments: :func:`printable` replaces each unprintable character of a message with ``?``
(the message is for reading); :func:`escaped` (and :func:`shown_path`) escapes them
(``\\x1b``), so that a name shown still tells which file it is, and shows the bytes of a name
that is not valid UTF-8 as ``\\xff`` instead of failing to encode them.
"""

from __future__ import annotations

import os

# A message quotes cfg text (a value, a key, a section name, a directive) that a hostile or
# broken file makes megabytes long: a 1 MB key gave a 1 MB message in every format. Longer runs
# of non-blanks are cut in the middle, and a message is cut as a whole past MAX_MESSAGE.
MAX_TOKEN = 200  # a long path or value still reads whole; a hostile one does not
MAX_MESSAGE = 2000
_KEPT = 80  # characters kept at each end of a cut run
# compiled when first used (re.sub's cache): most runs quote nothing that long (start-up)
_LONG_TOKEN = rf"\S{{{MAX_TOKEN + 1},}}"


def clipped(text: str) -> str:
    """``text`` with every run of more than MAX_TOKEN non-blank characters shortened to its
    ends around ``...(N characters)...``, then at most MAX_MESSAGE characters long, cut the
    same way in the middle (as rustc and ruff clip what they quote)."""
    if len(text) <= MAX_TOKEN:
        return text
    import re  # here: a clean run imports no re (start-up)
    text = re.sub(_LONG_TOKEN, lambda m: _cut(m.group(), _KEPT), text)
    return text if len(text) <= MAX_MESSAGE else _cut(text, MAX_MESSAGE // 2 - 20)


def _cut(run: str, kept: int) -> str:
    return f"{run[:kept]}...({len(run) - 2 * kept:,} characters)...{run[-kept:]}"


def printable(text: str) -> str:
    """``text`` with every unprintable character (C0, DEL, C1, line separators, bidi controls,
    surrogates, tabs, ...) replaced by ``?``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def shown_path(path: str) -> str:
    """A file name as it may be shown anywhere: undecodable bytes and controls as escapes."""
    return escaped(path)


def escaped(text: str) -> str:
    """``text`` with every unprintable character escaped as Python writes it (``\\x1b``,
    ``\\n``, ``\\u202e``), and a byte of a file name that was not valid UTF-8 (decoded with
    surrogateescape) as that byte, ``\\xff``: for text that must keep telling what it names."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def path_bytes(path: str) -> bytes:
    """The bytes of a file name as the operating system has them (for ``file://`` URIs)."""
    return os.fsencode(path)


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode("ascii")


# Characters XML 1.0 forbids anywhere in a document (production [2] Char), each to "?": a
# table for str.translate, built on first use (only JUnit asks)
_not_xml: dict[int, str] | None = None


def xml_safe(text: str) -> str:
    """``text`` without the characters an XML 1.0 document cannot hold (each becomes ``?``)."""
    global _not_xml
    if text.isascii() and text.isprintable():  # XML holds all of it; the common message
        return text
    if _not_xml is None:
        _not_xml = dict.fromkeys([*(code for code in range(0x20) if chr(code) not in "\t\n\r"),
                                  *range(0xD800, 0xE000), 0xFFFE, 0xFFFF], "?")
    # one pass in C: a loop per character cost JUnit a tenth of a millisecond a file
    return text.translate(_not_xml)


def _xml_char(ch: str) -> bool:
    """The Char production itself, one character: what :func:`xml_safe` is tested against."""
    code = ord(ch)
    if code < 0x20:
        return ch in "\t\n\r"
    return code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF
