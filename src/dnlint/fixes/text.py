"""Fixers of the file's text: BOM (DN014), CRLF (DN013), inline comments (DN011, DN012,
DN019), '//' comment lines (DN035), list commas (DN208, DN209), whitespace Darknet deletes
(DN010), and the unsafe renaming of an unknown option (DN201) and commenting out of a
duplicate key (DN009)."""

from __future__ import annotations

from dnlint.cnumbers import comma_items
from dnlint.diagnostics import Diagnostic
from dnlint.dialects import Dialect
from dnlint.edits import BOM, Edit
from dnlint.fixes import FixContext, fixer

_SPACE = " \t"
# whitespace between two characters that are not separators: what strip() glues together
# (patterns compiled on first use, by re's cache: a run with another fixable finding imports
# no re)
_GAP = r"(?<=[^ \t,=])[ \t]+(?=[^ \t,=])"
_DID_YOU_MEAN = ("did you mean '", "'?")  # DN201's hint around the one name it suggests


@fixer("DN014")
def remove_bom(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    return [Edit(0, len(BOM))] if ctx.source.data.startswith(BOM) else None


@fixer("DN013")
def crlf_to_lf(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Only where the dialect is hurt (the original Darknet keeps the CR); AlexeyAB's and
    hank-ai's read CRLF files alike, so a Windows user's file is left as it is."""
    if ctx.result.dialect is not Dialect.PJ:
        return None
    data = ctx.source.data
    edits = []
    at = data.find(b"\r\n")
    while at >= 0:
        edits.append(Edit(at, at + 1))
        at = data.find(b"\r\n", at + 2)
    if data.endswith(b"\r"):
        edits.append(Edit(len(data) - 1, len(data)))
    return edits


def _value_start(text: str) -> int:
    """Index of the first character of the value of an option line (after '=' and spaces)."""
    eq = text.find("=")
    at = eq + 1
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _comment_start(text: str, value_at: int) -> int:
    """Index of the '#', ';' or '//' that starts an inline comment (never the value's first
    character, as the reader decides), or -1."""
    found = [p for p in (text.find("#", value_at + 1), text.find(";", value_at + 1),
                         text.find("//", value_at + 1)) if p > 0]
    return min(found) if found else -1


def _move_comment(ctx: FixContext, line: int, code_end: int, comment_at: int) -> list[Edit] | None:
    """``code  # comment`` -> ``# comment`` on its own line above ``code``, same indent."""
    text = ctx.source.text(line)
    if text is None or comment_at < 0:
        return None
    code = text[:code_end].rstrip(_SPACE)
    comment = text[comment_at:].rstrip(_SPACE)
    indent = text[:len(text) - len(text.lstrip(_SPACE))]
    if not code.strip(_SPACE) or not comment:
        return None
    if comment.startswith("//"):
        comment = f"# {comment}"  # a line that starts with '//' is an option line to Darknet
    eol = ctx.source.eol(line).decode()
    edit = ctx.source.replace(line, 0, len(text), f"{indent}{comment}{eol}{code}")
    return [edit] if edit else None


@fixer("DN011", "DN012")
def inline_comment_above(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    text = ctx.source.text(diagnostic.line or 0)
    if text is None or "=" not in text:
        return None
    comment_at = _comment_start(text, _value_start(text))
    return _move_comment(ctx, diagnostic.line or 0, comment_at, comment_at)


@fixer("DN035")
def slash_comment_to_hash(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """``// note`` -> ``# note``: the line Darknet ignores becomes a comment it ignores."""
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if text is None:
        return None
    start = len(text) - len(text.lstrip(_SPACE))
    if not text.startswith("//", start):
        return None
    edit = ctx.source.replace(line, start, start + 2, "#")
    return [edit] if edit else None


@fixer("DN019")
def header_comment_above(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Only ``[name] # comment``: a header with a comment after it (the other DN019 cases,
    a missing ']' or '[]', have no single right answer)."""
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if text is None:
        return None
    close = text.find("]")
    rest = text[close + 1:].lstrip(_SPACE) if close > 0 else ""
    if not rest[:1] or (rest[0] not in "#;" and not rest.startswith("//")) \
            or "[" not in text[:close]:
        return None
    return _move_comment(ctx, line, close + 1, len(text) - len(text[close + 1:].lstrip(_SPACE)))


def value_body(text: str) -> tuple[int, int]:
    """The value of an option line without an inline comment and the spaces around it."""
    start = _value_start(text)
    comment_at = _comment_start(text, start)
    end = comment_at if comment_at >= 0 else len(text)
    return start, len(text[:end].rstrip(_SPACE))


@fixer("DN208", "DN209")
def drop_empty_items(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """``1,,2`` -> ``1,2`` and ``1,2,`` -> ``1,2``; the spacing of the kept items stays."""
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if text is None or "=" not in text:
        return None
    start, end = value_body(text)
    value = text[start:end]
    # lazily for a long line: a list of a million empty pieces cost 8 bytes per comma
    kept = [piece for piece in comma_items(value) if piece.strip(_SPACE)]
    if not kept or len(kept) == value.count(",") + 1:
        return None
    kept[0] = kept[0].lstrip(_SPACE)
    edit = ctx.source.replace(line, start, end, ",".join(kept))
    return [edit] if edit else None


@fixer("DN010")
def delete_inner_whitespace(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """``activation=lea ky`` -> ``activation=leaky``: what strip() reads, when no gap sits
    between two numbers (that is DN028: a comma may be missing, a choice)."""
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if text is None or "=" not in text:
        return None
    key_start = len(text) - len(text.lstrip(_SPACE))
    key_end = len(text[:text.find("=")].rstrip(_SPACE))
    start, end = value_body(text)
    edits = []
    for begin, finish in ((key_start, key_end), (start, end)):
        part = text[begin:finish]
        import re

        for gap in re.finditer(_GAP, part):
            before, after = part[gap.start() - 1], part[gap.end()]
            if before.isdigit() and (after.isdigit() or after in "-."):
                return None
            edit = ctx.source.replace(line, begin + gap.start(), begin + gap.end(), "")
            if edit is None:
                return None
            edits.append(edit)
    return edits or None


def suggested_name(hint: str) -> str | None:
    """The name in "did you mean 'name'?" when it is a plain option name (ASCII letters,
    digits and '_'), else None (read without a regex: a run with one misspelling imported
    none)."""
    before, after = _DID_YOU_MEAN
    hint = hint.removesuffix("\n")  # where the pattern this replaces let '$' match
    if not (hint.startswith(before) and hint.endswith(after)):
        return None
    name = hint[len(before):len(hint) - len(after)]
    plain = name.isascii() and all(char.isalnum() or char == "_" for char in name)
    return name if name and plain else None


@fixer("DN201")
def rename_option(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Unsafe: the unknown key becomes the one name the check suggested (``did you mean``),
    unless that key is already in the section (the rename would make a duplicate)."""
    name = suggested_name(diagnostic.hint or "")
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if name is None or text is None or "=" not in text:
        return None
    section = ctx.section_at(line)
    if section is None or section.find(name) is not None:
        return None
    key_start = len(text) - len(text.lstrip(_SPACE))
    key_end = len(text[:text.find("=")].rstrip(_SPACE))
    if any(space in text[key_start:key_end] for space in _SPACE):
        return None
    edit = ctx.source.replace(line, key_start, key_end, name)
    return [edit] if edit else None


@fixer("DN009")
def comment_out_duplicate(diagnostic: Diagnostic, ctx: FixContext) -> list[Edit] | None:
    """Unsafe: the later copy, which Darknet ignores, becomes a comment (``# key=value``):
    the file then says what Darknet reads, and the user sees which value was not used."""
    line = diagnostic.line or 0
    text = ctx.source.text(line)
    if text is None or not text.strip(_SPACE):
        return None
    key_start = len(text) - len(text.lstrip(_SPACE))
    edit = ctx.source.replace(line, key_start, key_start, "# ")
    return [edit] if edit else None
