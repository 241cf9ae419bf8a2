"""The one closest name to a misspelt one, as ``difflib.get_close_matches(word, names, n=1,
cutoff=0.7)`` picks it, without importing difflib (which imports ``re``: most of what a run
with one misspelt option paid over a clean one).

Darknet's option and section names are short, so this is difflib's own algorithm without its
junk heuristics, which only act on a word of 200 characters or more (``autojunk``); such a
word is handed to difflib itself.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

_AUTOJUNK_LENGTH: Final = 200  # SequenceMatcher's autojunk acts from this length of word on


def close_match(word: str, names: Sequence[str], cutoff: float = 0.7) -> str | None:
    """The name whose SequenceMatcher ratio to ``word`` is highest and at least ``cutoff``
    (ties: the greatest name, as ``heapq.nlargest`` orders (ratio, name) pairs), or None."""
    if len(word) >= _AUTOJUNK_LENGTH:
        import difflib

        found = difflib.get_close_matches(word, names, n=1, cutoff=cutoff)
        return found[0] if found else None
    positions: dict[str, list[int]] = {}  # difflib's b2j: where each character of word is
    counts: dict[str, int] = {}
    for j, char in enumerate(word):
        positions.setdefault(char, []).append(j)
        counts[char] = counts.get(char, 0) + 1
    best: tuple[float, str] | None = None
    for name in names:
        total = len(name) + len(word)
        # real_quick_ratio and quick_ratio first, as difflib does: upper bounds of the ratio
        if _ratio(min(len(name), len(word)), total) < cutoff \
                or _ratio(_common(name, counts), total) < cutoff:
            continue
        score = _ratio(_matching(name, word, positions), total)
        if score >= cutoff and (best is None or (score, name) > best):
            best = (score, name)
    return None if best is None else best[1]


def _ratio(matches: int, length: int) -> float:
    return 2.0 * matches / length if length else 1.0


def _common(name: str, counts: dict[str, int]) -> int:
    """How many characters ``name`` and the word have in common, as multisets."""
    left = dict(counts)
    common = 0
    for char in name:
        available = left.get(char, 0)
        if available > 0:
            left[char] = available - 1
            common += 1
    return common


def _matching(a: str, b: str, positions: dict[str, list[int]]) -> int:
    """The characters of SequenceMatcher(None, a, b)'s matching blocks: the longest common
    block, then the same on each side of it (get_matching_blocks)."""
    matched = 0
    queue = [(0, len(a), 0, len(b))]
    while queue:
        alo, ahi, blo, bhi = queue.pop()
        i, j, size = _longest(a, positions, alo, ahi, blo, bhi)
        if size:
            matched += size
            if alo < i and blo < j:
                queue.append((alo, i, blo, j))
            if i + size < ahi and j + size < bhi:
                queue.append((i + size, ahi, j + size, bhi))
    return matched


def _longest(a: str, positions: dict[str, list[int]], alo: int, ahi: int, blo: int,
             bhi: int) -> tuple[int, int, int]:
    """find_longest_match without junk: the earliest longest block of a[alo:ahi] in
    b[blo:bhi], as (i, j, size)."""
    best_i, best_j, best_size = alo, blo, 0
    run: dict[int, int] = {}  # j -> length of the block ending at a[i-1], b[j]
    for i in range(alo, ahi):
        next_run: dict[int, int] = {}
        for j in positions.get(a[i], ()):
            if j < blo:
                continue
            if j >= bhi:
                break
            size = next_run[j] = run.get(j - 1, 0) + 1
            if size > best_size:
                best_i, best_j, best_size = i - size + 1, j - size + 1, size
        run = next_run
    return best_i, best_j, best_size
