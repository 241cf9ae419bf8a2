"""Layer types: route (to be declared)."""
