"""Settings and policy (bytes → read → options → network → weights → checks → dataset →
**settings/policy** → reporters): what a run or an editor asks to see, resolved once per file.

Between the stages and the faces: the configuration file (``config.py``: ``.dnlint.toml``,
``pyproject.toml``), rule selectors (``selectors.py``), in-file ``# dnlint:`` directives
(``directives.py``), the policy that applies them all to a file's findings (``policy.py``), and
what ``gpu-memory = "auto"`` reads of the machine (``gpu.py``: nvidia-smi; ``machine_card.py``:
asked once, for every face). The pipeline (:mod:`dnlint.pipeline`) reads them; the stages
before it never do."""
