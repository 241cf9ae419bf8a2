"""DN9xx: dnlint's own directives."""
