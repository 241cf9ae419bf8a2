"""``--watch``: lint again whenever a file the run depends on changes.

Polling (a stat of each file twice a second) rather than a watcher library: it needs no
dependency, works on every file system (network mounts, containers' bind mounts), and a
project has tens of cfgs, not thousands. What is watched: the paths given, the cfgs, weights
files and configuration files below the directories given, and the configuration and ignore
files in the working directory. Ctrl-C ends it (exit status 0).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import click

POLL_SECONDS = 0.5
_WATCHED_SUFFIXES = (".cfg", ".weights", ".toml", ".data", ".names", ".gitignore", ".ignore")
Snapshot = dict[str, tuple[int, int]]


def watch(run_once: Callable[[], int], paths: tuple[str, ...], args: Any) -> None:
    """Run, then run again after every change, until interrupted; never returns."""
    extra = [p for p in ((*args.weights, args.cfg, args.data, args.config_file)) if p]
    watched = (*paths, *extra, os.curdir)
    try:
        while True:
            before = snapshot(watched)
            _run_and_keep_going(run_once)
            click.echo("[watching for changes: Ctrl-C to stop]", err=True)
            while snapshot(watched) == before:
                time.sleep(POLL_SECONDS)
            click.echo("[a file changed: linting again]", err=True)
    except KeyboardInterrupt:
        sys.exit(0)


def _run_and_keep_going(run_once: Callable[[], int]) -> None:
    """A run's exit (a bad configuration, say) ends that run, not the watch."""
    with contextlib.suppress(SystemExit):
        run_once()
    sys.stdout.flush()


def snapshot(paths: tuple[str, ...]) -> Snapshot:
    """(mtime, size) of every watched file; directories are listed iteratively, and only to a
    bounded depth below the working directory (its configuration files)."""
    found: Snapshot = {}
    for path in paths:
        if path == "-":
            continue
        if path == os.curdir:
            _add_folder_files(found, path)
        elif os.path.isdir(path):
            _add_tree(found, path)
        else:
            _add(found, path)
    return found


def _add(found: Snapshot, path: str) -> None:
    try:
        info = os.stat(path)
    except OSError:
        found[path] = (-1, -1)  # a file that vanishes or appears is a change too
        return
    found[path] = (info.st_mtime_ns, info.st_size)


def _add_folder_files(found: Snapshot, folder: str) -> None:
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(_WATCHED_SUFFIXES) and entry.is_file():
                    _add(found, os.path.join(folder, entry.name))
    except OSError:
        pass


def _add_tree(found: Snapshot, root: str) -> None:
    stack = [root]
    while stack:
        folder = stack.pop()
        _add_folder_files(found, folder)
        try:
            with os.scandir(folder) as entries:
                stack += [e.path for e in entries
                          if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
                          and e.name not in ("node_modules", "venv", "__pycache__")]
        except OSError:
            pass
