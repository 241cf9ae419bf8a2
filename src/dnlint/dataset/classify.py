"""A classifier's labels as fill_truth matches them: label ``i`` is the image's class when
``strstr(path, labels[i])`` finds it anywhere in the path (a folder name, a file name, or part
of a longer word), and exactly one label must match."""

from __future__ import annotations

from collections import defaultdict

# up to this many labels, each is looked for in turn (strstr); beyond, the path's substrings
# of each label length are looked up
DIRECT = 64
MAX_PAIRWISE = 3000


class LabelMatcher:
    """The labels an image path contains, as fill_truth counts them."""

    def __init__(self, labels: list[str]) -> None:
        self.labels = labels
        self._by_text: dict[str, list[int]] = defaultdict(list)
        for index, label in enumerate(labels):
            self._by_text[label].append(index)
        self._lengths = sorted({len(label) for label in labels if label})
        self._always = self._by_text.get("", [])

    def matches(self, path: str) -> list[int]:
        """The indices of the labels found in ``path``, in label order."""
        if len(self.labels) <= DIRECT or self._search_is_cheaper(len(path)):
            return [i for i, label in enumerate(self.labels) if label in path]
        found: set[int] = set(self._always)
        lookup = self._by_text
        for length in self._lengths:
            for start in range(len(path) - length + 1):
                hit = lookup.get(path[start:start + length])
                if hit is not None:
                    found.update(hit)
        return sorted(found)

    def _search_is_cheaper(self, size: int) -> bool:
        """Whether searching ``size`` characters for each label (C, about a nanosecond a
        character) costs less than looking up each of its slices of a label's length (a slice
        made and hashed in Python, about 60 ns and more for a long one). Many labels of a few
        lengths (ImageNet's) take the slices; labels of hundreds of lengths and long paths,
        where the slices cost lengths x path x length (a minute for 150 paths), the search."""
        budget = len(self.labels) * size
        cost = 0
        for length in self._lengths:
            if length > size:
                break
            cost += (size - length + 1) * (64 + length // 8)
            if cost > budget:
                return True
        return False


def contained_pairs(labels: list[str], limit: int = 10) -> list[tuple[int, int]]:
    """Up to ``limit`` pairs (inner, outer) of distinct non-empty labels where one is inside
    the other: every path of the outer class matches both."""
    pairs: list[tuple[int, int]] = []
    # quadratic: a hierarchy of tens of thousands of labels is looked at in its first part
    ordered = sorted((label, i) for i, label in enumerate(labels) if label)[:MAX_PAIRWISE]
    for inner, i in ordered:
        for outer, j in ordered:
            if i != j and inner != outer and inner in outer:
                pairs.append((i, j))
                if len(pairs) >= limit:
                    return pairs
    return pairs
