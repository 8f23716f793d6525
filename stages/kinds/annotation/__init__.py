"""Structured JSON v3 narrative annotations (seed 001): documents, evaluators per component, the kind and its report."""
