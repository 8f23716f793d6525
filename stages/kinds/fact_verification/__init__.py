"""Fact verification: verdicts against gold labels, with a confusion matrix and per-class scores."""
