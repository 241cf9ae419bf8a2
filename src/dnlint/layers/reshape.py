"""Layer types: reshape (to be declared)."""
