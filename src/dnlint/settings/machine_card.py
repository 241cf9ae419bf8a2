"""``gpu-memory = "auto"`` (and a training job): the card of this machine, asked once, for the
pipeline's settings (:class:`dnlint.pipeline.Choices`' ``machine_card``). Every face that
honours "auto" makes one: a run (the command, the API) per run, the language server per
settings; the query itself is :mod:`dnlint.settings.gpu` (nvidia-smi).
"""

from __future__ import annotations

from collections.abc import Callable


class MachineCardOnce:
    """This machine's card, (bytes, what it is) or None, asked of nvidia-smi the first time it
    is needed and never again (a face keeps one per run, or per settings of the editor).
    ``asked``: whether "auto" asked for it, rather than a training job reading it. When there
    is none, ``tell`` is given the sentence that says why (``setting`` names what asked):
    always when it was asked for, and for a training job when nvidia-smi is there but fails (a
    driver Darknet cannot use either)."""

    def __init__(self, tell: Callable[[str], None], setting: str = "--gpu-memory auto") -> None:
        self.tell = tell
        self.setting = setting
        self._card: tuple[tuple[int, str] | None] | None = None

    def __call__(self, asked: bool) -> tuple[int, str] | None:
        if self._card is None:
            # here, not at the top: the process machinery loads only when a card is asked for
            from dnlint.settings.gpu import describe, query_cards

            query = query_cards()
            card = query.smallest()
            self._card = ((card.memory, describe(query)) if card is not None else None,)
            if card is None and (asked or query.found):
                how = (self.setting if asked
                       else "the GPU of this machine (read for the training job)")
                self.tell(f"{how}: {no_card(query.problem)}")
        return self._card[0]


def no_card(problem: str | None) -> str:
    """What the check does when no card was found, and why."""
    from dnlint.checks.memory import COMMON_CARD, gib

    return (f"{problem}; training memory is checked against the largest common "
            f"training card ({gib(COMMON_CARD)}, DN123) instead")
