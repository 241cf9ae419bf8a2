"""Layer types: recurrent (to be declared)."""
