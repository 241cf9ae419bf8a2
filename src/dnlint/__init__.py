"""dnlint: a strict validator for Darknet ``.cfg`` and ``.weights`` files."""

__version__ = "0.1.0"
