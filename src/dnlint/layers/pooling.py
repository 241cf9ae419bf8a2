"""Layer types: pooling (to be declared)."""
