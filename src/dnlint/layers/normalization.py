"""Layer types: normalization (to be declared)."""
