"""Nightly runs: the metric history over nights and the regression tests between two nights."""
