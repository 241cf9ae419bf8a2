"""The read stage, the first (bytes → **read** → options → network → weights → checks → dataset →
settings/policy → reporters): bytes -> sections with positions, read the way each dialect's
Darknet reads a cfg.

``darknet_reader.py`` (pjreddie and AlexeyAB; ``line_forms.py``, what one line's text looks
like to it; ``headers.py``, a section header line; ``line_split.py``, its lines a chunk at a
time; ``section_text.py``, a section text it read once and makes again; ``structure.py``, its
last pass over the whole document), ``document.py`` (what both produce; ``lines.py``, its
lines cut on demand and the search for a directive across them), ``hank_reader.py``
(hank-ai's own lexer), ``sniff.py`` (files that are not cfgs at all). Nothing here imports a
later stage."""

# the cap on a cfg's size: a larger file is no cfg (a weights file given as the cfg?), and a
# run reads no more of it
MAX_CFG_BYTES = 256 * 1024 * 1024
