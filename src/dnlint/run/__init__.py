"""A face: the command line's run around the one pipeline (:mod:`dnlint.pipeline`).

Only what belongs to a command line: paths in (``inputs.py`` walks, ``excludes.py``), pairing
weights files with cfgs and planning the jobs (``engine.py``), the flags (``options.py``),
``--fix``'s reading and writing (``fixing.py``), outputs written without losing a file
(``outputs.py``), ``--watch`` and ``--show-settings``; and the counts the exit status comes
from. Settings resolve in :mod:`dnlint.settings`, each document is linted by the pipeline."""
