"""Layer types: connected (to be declared)."""
