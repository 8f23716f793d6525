"""Numeric answers: numbers with tolerance and units, proportional similarity, correct / partial / wrong."""
