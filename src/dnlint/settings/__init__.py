"""Settings: what a run or an editor asks to see, resolved once per file.

Between the stages and the faces: the configuration file (``config.py``: ``.dnlint.toml``,
``pyproject.toml``), rule selectors (``selectors.py``), in-file ``# dnlint:`` directives
(``directives.py``) and the policy that applies them all to a file's findings (``policy.py``).
The pipeline (:mod:`dnlint.pipeline`) reads them; the stages before it never do."""
