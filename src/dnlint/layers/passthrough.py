"""Layer types: passthrough (to be declared)."""
