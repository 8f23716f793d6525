"""Fact verification: verdicts against gold labels, with a confusion matrix and per-class scores."""
from . import kind  # noqa: F401  (registers the kind)
