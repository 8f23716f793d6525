"""Task kinds, one module or package each, registered by name; importing this package registers all of them."""
from . import annotation, dialogue, fact_verification, multiple_choice, numeric, qa  # noqa: F401  (registers)
from .base import Kind, get_kind, kind_names, rank_models, register_kind

__all__ = ["Kind", "get_kind", "kind_names", "rank_models", "register_kind"]
