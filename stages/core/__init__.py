"""The bottom layer: row bookkeeping, errors, progress, ratios and console tables, shared by everything above."""
