"""The options stage (bytes → read → **options** → network → weights → checks → dataset →
settings/policy → reporters): sections -> typed options, checked against each section type's
declarations.

``schema.py`` (the declaration vocabulary), ``convert.py`` and ``hank_convert.py`` (values as
each fork reads them; ``list_items.py`` the items of a list option), ``net_section.py``
(``[net]``), ``value_checks.py``; ``section_memo.py`` lets sections of one text share
their typing. Reads what :mod:`dnlint.read` produced, nothing later."""
