"""``--dialect auto``: decide from the layer types, options and values a cfg uses."""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.network.layers import by_section, section_dialects
from dnlint.network.layers.base import LayerType
from dnlint.options.net_section import NET_OPTIONS
from dnlint.options.schema import Kind, Opt
from dnlint.read.darknet_reader import CfgDocument, Section

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# Where the two forks build different networks or files from the same text (§dialects).
_SENSITIVE = {
    "batchnorm": "[batchnorm] stores 3*c floats in the original and 4*c in AlexeyAB's",
    "rnn": "[rnn] has a 'hidden' size only in AlexeyAB's (default 1)",
    "crnn": "[crnn] reads different keys in each fork",
    "gru": "[gru] stores its sub-layers in a different order in each fork",
    "lstm": "[lstm] stores its gates in a different order in each fork",
}


class Detection:
    """The dialect chosen for a file, and why.

    (A plain class, not a dataclass: creating a dataclass costs every run's start-up.)"""

    __slots__ = ("ambiguous", "conflicting", "dialect", "guessed", "reason")

    def __init__(self, dialect: Dialect, reason: str, ambiguous: list[str] | None = None,
                 conflicting: bool = False, guessed: bool = False) -> None:
        self.dialect = dialect
        self.reason = reason
        self.ambiguous: list[str] = [] if ambiguous is None else ambiguous
        self.conflicting = conflicting
        self.guessed = guessed  # nothing in the file is specific to one fork


def detect_dialect(doc: CfgDocument) -> Detection:
    """Vote with every section, key and enum value that only one fork knows."""
    evidence: dict[Dialect, list[str]] = {_PJ: [], _AB: []}
    types: set[str] = set()
    for section in doc.layer_sections():  # one at a time: a slice built every section
        name = section.name
        known = _SECTION_KNOWLEDGE.get(name) or _knowledge(name)
        only_in, type_name, votes = known
        if only_in is not None:
            evidence[only_in].append(f"[{name}]")
        if type_name is None:
            continue
        types.add(type_name)
        same_text = section.text
        remembered = same_text.memo.get(_CAST) if same_text is not None else None
        cast: tuple[Vote, ...] = remembered if remembered is not None else _cast(section, votes)
        if same_text is not None and remembered is None:
            # the reader made it from a text it had read: its next section of it asks again
            same_text.memo[_CAST] = cast
        for fork, reason in cast:
            evidence[fork].append(reason)
    if doc.sections:
        net_verdicts = _net_verdicts()
        for option in doc.sections[0].options:
            verdict = net_verdicts.get(option.key)
            if verdict is not None:
                evidence[verdict].append(f"'{option.key}' in [net]")
    pj, ab = evidence[Dialect.PJ], evidence[Dialect.AB]
    if pj and not ab:
        return Detection(Dialect.PJ, f"only the original Darknet has {_few(pj)}")
    if ab and not pj:
        return Detection(Dialect.AB, f"only AlexeyAB's Darknet has {_few(ab)}")
    if pj and ab:
        winner = Dialect.PJ if len(pj) > len(ab) else Dialect.AB
        return Detection(
            winner,
            f"mixed evidence: original-only {_few(pj)}; AlexeyAB-only {_few(ab)}",
            conflicting=True,
        )
    ambiguous = sorted({_SENSITIVE[t] for t in types if t in _SENSITIVE})
    return Detection(
        Dialect.AB,
        "nothing in the file is specific to one fork; using alexeyab, the fork most users run",
        ambiguous,
        guessed=True,
    )


# An option's vote: the fork, and the evidence as the reason says it ("'key' in [section]",
# "activation=mish").
Vote = tuple[Dialect, str]
# What a section name tells: the fork that alone knows it, its layer type, and the votes of its
# keys: a key only one fork reads votes whatever its value; an enum, a vote per value only one
# fork accepts. Worked out once per name, text included: a file of hundreds of activation=mish
# lines built the same string for each. Kept for the names some dialect knows (a bounded set);
# unknown names are recomputed.
_Knowledge = tuple[Dialect | None, str | None, dict[str, "Vote | dict[str, Vote]"]]
_SECTION_KNOWLEDGE: Final[dict[str, _Knowledge]] = {}


_CAST: Final = "dialect votes"  # SectionText.memo's key for _cast's answer


def _cast(section: Section, votes: dict[str, Vote | dict[str, Vote]]) -> tuple[Vote, ...]:
    """The votes the options of ``section`` cast, in file order."""
    cast: list[Vote] = []
    # Section.options without its list copy when the section's dict holds them all
    first, listed = section.made(), section.listed  # once per text: made (SectionText.memo)
    options = (listed if listed is not None
               else first.values() if type(first) is dict else section.options)
    for option in options:
        vote = votes.get(option.key)
        if vote is None:
            continue
        if isinstance(vote, dict):  # an enum: the value decides
            value = option.value
            vote = vote.get(value) if value else None
            if vote is None:
                continue
        cast.append(vote)
    return tuple(cast)


def _knowledge(name: str) -> _Knowledge:
    dialects = section_dialects().get(name)
    only_in = None
    if dialects and _PJ in dialects and _AB not in dialects:
        only_in = _PJ
    elif dialects and _AB in dialects and _PJ not in dialects:
        only_in = _AB
    layer_type = by_section(name, _AB) or by_section(name, _PJ)
    if layer_type is None:
        return only_in, None, {}
    votes: dict[str, Vote | dict[str, Vote]] = {}
    for key, verdict in _verdicts(layer_type).items():
        if isinstance(verdict, dict):
            votes[key] = {value: (fork, f"{key}={value}") for value, fork in verdict.items()}
        else:
            votes[key] = (verdict, f"'{key}' in [{name}]")
    known = _SECTION_KNOWLEDGE[name] = (only_in, layer_type.name, votes)
    return known


# Enum members are slow class attributes on Python 3.11: the per-section loops use these.
_PJ, _AB = Dialect.PJ, Dialect.AB


# What an option says about the dialect: the fork that alone reads it, or, for an enum, the
# values only one fork accepts (activation=mish: alexeyab); options both forks read alike, and
# enums whose values all mean the same in both, are absent.
Verdict = Dialect | dict[str, Dialect]
_VERDICTS: dict[str, dict[str, Verdict]] = {}


def _verdicts(layer_type: LayerType) -> dict[str, Verdict]:
    table = _VERDICTS.get(layer_type.name)
    if table is None:
        table = {}
        declarations: dict[str, list[Opt]] = {}
        for spec in layer_type.options:  # declared once per dialect sometimes (shortcut 'from')
            declarations.setdefault(spec.name, []).append(spec)
        for key, specs in declarations.items():
            readers: frozenset[Dialect] = frozenset().union(*(spec.dialects for spec in specs))
            if Dialect.PJ in readers and Dialect.AB not in readers:
                table[key] = Dialect.PJ
            elif Dialect.AB in readers and Dialect.PJ not in readers:
                table[key] = Dialect.AB
            else:
                telling = _telling_values(specs)
                if telling:
                    table[key] = telling
        _VERDICTS[layer_type.name] = table
    return table


def _telling_values(specs: list[Opt]) -> dict[str, Dialect]:
    """The values of a key's first enum declaration that only one fork accepts."""
    for spec in specs:
        if spec.kind is Kind.ENUM and spec.choices:
            pj = spec.choices.get(Dialect.PJ, frozenset())
            ab = spec.choices.get(Dialect.AB, frozenset())
            return {**dict.fromkeys(ab - pj, Dialect.AB), **dict.fromkeys(pj - ab, Dialect.PJ)}
    return {}


_NET_VERDICTS: dict[str, Dialect] = {}


def _net_verdicts() -> dict[str, Dialect]:
    """The fork that alone reads each [net] key (keys both read are absent); built once."""
    if not _NET_VERDICTS:
        for spec in NET_OPTIONS:
            if spec.dialects == frozenset({Dialect.PJ}):
                _NET_VERDICTS[spec.name] = Dialect.PJ
            elif Dialect.PJ not in spec.dialects:
                _NET_VERDICTS[spec.name] = Dialect.AB
    return _NET_VERDICTS


def _few(items: list[str]) -> str:
    unique = list(dict.fromkeys(items))
    shown = ", ".join(unique[:3])
    return shown + (f" and {len(unique) - 3} more" if len(unique) > 3 else "")
