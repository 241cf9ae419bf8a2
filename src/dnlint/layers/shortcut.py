"""Layer types: shortcut (to be declared)."""
