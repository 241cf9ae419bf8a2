"""``--watch``: lint again whenever a file the run depends on changes.

Polling (a stat of each file twice a second) rather than a watcher library: it needs no
dependency, works on every file system (network mounts, containers' bind mounts), and a
project has tens of cfgs, not thousands. What is watched is what the run reads, found the way
the run finds it (the same walk, excludes and weights pairing, planned again at every poll, so
a new cfg counts as a change), plus the configuration and ignore files beside each of those
files and in the working directory. Ctrl-C ends it (exit status 0).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable

import click

POLL_SECONDS = 0.5
_SETTINGS = ("pyproject.toml", ".dnlint.toml", ".gitignore", ".ignore")
Snapshot = dict[str, tuple[int, int]]


def watch(run_once: Callable[[], int], files_read: Callable[[], Iterable[str]]) -> None:
    """Run, then run again after every change, until interrupted; never returns."""
    try:
        while True:
            before = snapshot(files_read())
            _run_and_keep_going(run_once)
            click.echo("[watching for changes: Ctrl-C to stop]", err=True)
            while snapshot(files_read()) == before:
                time.sleep(POLL_SECONDS)
            click.echo("[a file changed: linting again]", err=True)
    except KeyboardInterrupt:
        sys.exit(0)


def _run_and_keep_going(run_once: Callable[[], int]) -> None:
    """A run's exit (a bad configuration, say) ends that run, not the watch."""
    with contextlib.suppress(SystemExit):
        run_once()
    sys.stdout.flush()


def snapshot(files: Iterable[str]) -> Snapshot:
    """(mtime, size) of every file, and of the settings files beside each of them and in the
    working directory; a file that is missing counts as (-1, -1)."""
    found: Snapshot = {}
    folders = {os.curdir}
    for path in files:
        _add(found, path)
        folders.add(os.path.dirname(path) or os.curdir)
    for folder in folders:
        for name in _SETTINGS:
            _add(found, os.path.join(folder, name))
    return found


def _add(found: Snapshot, path: str) -> None:
    try:
        info = os.stat(path)
    except OSError:
        found[path] = (-1, -1)  # a file that vanishes or appears is a change too
        return
    found[path] = (info.st_mtime_ns, info.st_size)
