"""The kinds report.html shows with the plain view (status and reading), named one by one: a kind joins this list
deliberately, and leaves it when it gets a view of its own."""
from __future__ import annotations

from . import ItemRenderer, register_renderer

PLAIN_KINDS = ("dialogue", "fact_verification", "instruction", "multiple_choice", "numeric", "qa")

for _kind in PLAIN_KINDS:
    register_renderer(_kind)(ItemRenderer)
