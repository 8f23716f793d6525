"""Dialogue / persona responses (seed 003): similarity metrics, the kind, and the human-annotation CSV."""
