"""The checks stage (bytes → read → options → network → weights → **checks** → dataset →
settings/policy → reporters): checks that look at more than one option or more than one layer
at a time.

They read the built network (:mod:`dnlint.network`) and report to a sink; the data set stage,
the targets and the pipeline come after them. ``data.py``/``data_file.py`` check a training
job's ``.data`` file, ``memory.py`` a GPU memory budget, ``recipe.py`` the opt-in DN7 rules."""
