"""How bad a finding is: the one type both the rule registry and the diagnostics need."""

from __future__ import annotations

from dnlint.strenum import StrEnum, define

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar


class Severity(StrEnum):
    ERROR: ClassVar[Severity]
    WARNING: ClassVar[Severity]
    INFO: ClassVar[Severity]

    @property
    def rank(self) -> int:
        return _RANKS[self.value]


define(Severity, ERROR="error", WARNING="warning", INFO="info")
_RANKS = {"error": 2, "warning": 1, "info": 0}
