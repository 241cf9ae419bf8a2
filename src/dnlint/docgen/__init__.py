"""Not a stage: generators of the pages under ``docs/`` from the rule registry and the option
declarations.

``python -m dnlint.docgen --write`` regenerates all of them."""
