"""Stage 2: sections -> typed options, checked against each section type's declarations."""
