"""Stage 1: bytes -> sections with positions, read the way each dialect's Darknet reads a cfg."""
