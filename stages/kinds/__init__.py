"""Task kinds, one module or package each, registered by name; a kind's module is imported when it is first asked for
(get_kind), so a run pays only for the kinds its datasets use."""
from .base import Kind, get_kind, kind_names, rank_models, register_kind, report_kind

__all__ = ["Kind", "get_kind", "kind_names", "rank_models", "register_kind", "report_kind"]
