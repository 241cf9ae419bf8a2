"""Making untrusted text safe to show: cfg text, file names and config keys reach terminals,
CI logs and XML, where a control character can move the cursor, set the window title or end a
document.

Two treatments: :func:`printable` replaces each unprintable character of a message with ``?``
(the message is for reading); :func:`shown_path` escapes them (``\\x1b``), so that the name
shown still tells which file it is, and shows the bytes of a name that is not valid UTF-8 as
``\\xff`` instead of failing to encode them.
"""

from __future__ import annotations

import os


def printable(text: str) -> str:
    """``text`` with every unprintable character (C0, DEL, C1, line separators, bidi controls,
    surrogates, tabs, ...) replaced by ``?``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def shown_path(path: str) -> str:
    """A file name as it may be shown anywhere: undecodable bytes and controls as escapes."""
    if path.isprintable():
        return path
    raw = os.fsencode(path) if _has_surrogates(path) else None
    text = raw.decode("utf-8", "backslashreplace") if raw is not None else path
    return "".join(ch if ch.isprintable() or ch == "\\" else _escape(ch) for ch in text)


def path_bytes(path: str) -> bytes:
    """The bytes of a file name as the operating system has them (for ``file://`` URIs)."""
    return os.fsencode(path)


def _has_surrogates(text: str) -> bool:
    return any("\udc80" <= ch <= "\udcff" for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


# Characters XML 1.0 forbids anywhere in a document (production [2] Char).
def xml_safe(text: str) -> str:
    """``text`` without the characters an XML 1.0 document cannot hold (each becomes ``?``)."""
    if text.isascii() and text.isprintable():  # XML holds all of it; and cheaper than the loop
        return text
    if all(_xml_char(ch) for ch in text):
        return text
    return "".join(ch if _xml_char(ch) else "?" for ch in text)


def _xml_char(ch: str) -> bool:
    code = ord(ch)
    if code < 0x20:
        return ch in "\t\n\r"
    return code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF
