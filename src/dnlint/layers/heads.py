"""Layer types: heads (to be declared)."""
