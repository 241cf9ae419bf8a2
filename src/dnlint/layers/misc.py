"""Layer types: misc (to be declared)."""
