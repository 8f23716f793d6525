"""Dialogue / persona responses (seed 003): similarity metrics, the kind, and the human-annotation CSV."""
from . import kind  # noqa: F401  (registers the kind)
