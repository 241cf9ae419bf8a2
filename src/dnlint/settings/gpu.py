"""``gpu-memory = "auto"``: the memory of this machine's NVIDIA cards, as ``nvidia-smi`` reports
it. Part of settings resolution: every face that honours "auto" (``--gpu-memory auto`` and the
API's ``gpu_memory="auto"`` through a run, the editor's ``gpuMemory``) hands the pipeline a
:class:`dnlint.settings.machine_card.MachineCardOnce`, which asks this module once.

This is the one place dnlint starts a process, and only when asked (``--gpu-memory auto``,
``gpuMemory: "auto"``, or ``gpu-memory = "auto"``) or when a training job is checked (a .data
file with a cfg): a plain lint never does. Whatever goes wrong (no nvidia-smi, a driver it
cannot talk to, no card, output it does not expect, a hang) is a sentence for the user, never a
traceback: the lint then checks against the largest common training card (DN123) instead.

``nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits`` prints one line per
card, ``NVIDIA GeForce RTX 3090, 24576``: the total in MiB. Darknet trains the cfg's whole
mini-batch on each card it is given (``-gpus 0,1``), so the smallest card is the one that must
hold it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from typing import IO, Final

from dnlint.records import NamedTuple

QUERY: Final = ("--query-gpu=name,memory.total", "--format=csv,noheader,nounits")
# nvidia-smi takes a second or two to wake a driver without persistence mode, per card; a
# wedged driver makes it hang for minutes
TIMEOUT: Final = 15.0
MAX_OUTPUT: Final = 64 * 1024  # far more than any machine's cards print; the rest is not read
_MIB: Final = 2**20


class Card(NamedTuple):
    name: str
    memory: int  # bytes


class CardQuery(NamedTuple):
    """The cards found (none when ``problem`` says why), and whether nvidia-smi was found at
    all (a machine without it is not a machine with a broken driver)."""

    cards: tuple[Card, ...]
    problem: str | None = None
    found: bool = True

    def smallest(self) -> Card | None:
        return min(self.cards, key=lambda card: card.memory) if self.cards else None


def query_cards(timeout: float = TIMEOUT) -> CardQuery:
    """This machine's cards by nvidia-smi (looked up on PATH), or why there are none."""
    program = shutil.which("nvidia-smi")
    if program is None:
        return CardQuery((), "nvidia-smi was not found on PATH (no NVIDIA driver here?)",
                         found=False)
    ran = _run(program, timeout)
    if isinstance(ran, str):
        return CardQuery((), ran)
    status, output = ran
    text = output.decode("utf-8", errors="replace")
    if status != 0:
        said = _first_line(text)
        return CardQuery((), f"nvidia-smi failed (exit status {status})"
                             + (f": {said}" if said else ""))
    return parse_cards(text)


def parse_cards(text: str) -> CardQuery:
    """One ``name, MiB`` line per card; anything else is reported, not guessed at."""
    cards = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, comma, size = line.rpartition(",")
        size = size.strip()
        if not comma or not size.isdigit() or not size.isascii() or int(size) == 0:
            return CardQuery((), f"nvidia-smi printed what dnlint does not understand (line "
                                 f"{number}: {_shown(line)!r}; expected 'name, MiB')")
        cards.append(Card(name.strip(), int(size) * _MIB))
    if not cards:
        return CardQuery((), "nvidia-smi listed no card")
    return CardQuery(tuple(cards))


def describe(query: CardQuery) -> str:
    """'this machine's GPU (NVIDIA GeForce RTX 3090, 24 GiB)', or its smallest of several."""
    from dnlint.checks.memory import gib

    card = query.smallest()
    assert card is not None
    if len(query.cards) == 1:
        return f"this machine's GPU ({card.name}, {gib(card.memory)})"
    return (f"the smallest of this machine's {len(query.cards)} GPUs ({card.name}, "
            f"{gib(card.memory)})")


def _run(program: str, timeout: float) -> tuple[int, bytes] | str:
    """(exit status, the first MAX_OUTPUT bytes of its output) or why it could not be run.
    The program runs in a session of its own, so that a timeout kills whatever it started."""
    try:
        process = subprocess.Popen(
            [program, *QUERY], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=os.name == "posix")
    except OSError as exc:
        return f"nvidia-smi could not be started ({exc.strerror or exc})"
    assert process.stdout is not None
    chunks: list[bytes] = []
    reader = threading.Thread(target=_read, args=(process.stdout, chunks), daemon=True)
    reader.start()
    reader.join(timeout)
    if reader.is_alive():
        _kill(process)
        reader.join(1.0)
        return f"nvidia-smi did not answer within {timeout:g} seconds"
    try:
        status = process.wait(timeout=max(timeout, 1.0))
    except subprocess.TimeoutExpired:  # it closed its output but goes on
        _kill(process)
        return f"nvidia-smi did not answer within {timeout:g} seconds"
    finally:
        process.stdout.close()
    return status, b"".join(chunks)


def _read(stream: IO[bytes], chunks: list[bytes]) -> None:
    """Up to MAX_OUTPUT bytes, then drain the rest (a writer must not block on a full pipe)."""
    budget = MAX_OUTPUT
    try:
        while chunk := stream.read(8192):
            if budget > 0:
                chunks.append(chunk[:budget])
                budget -= len(chunk)
    except (OSError, ValueError):  # closed under it after a timeout
        pass


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except OSError:
        pass
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5.0)


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return _shown(line.strip())
    return ""


def _shown(line: str) -> str:
    return line if len(line) <= 120 else line[:117] + "..."
