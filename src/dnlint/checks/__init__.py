"""Checks that look at more than one option or more than one layer at a time."""
