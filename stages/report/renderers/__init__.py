"""How report.html shows what a model did on an item, one renderer per kind, registered by the kind's name as kinds
are: the fields its view reads from a B4 row, the page script's view that draws them and the assets it needs."""
from __future__ import annotations

from typing import Any, ClassVar

from ...core.errors import UsageError
from ...core.registry import Registry

READABLE_REPLY = "reply"  # a field the explorer shows as the reply, where the raw one is a kind's JSON (tau2's trials)


class ItemRenderer:
    """The plain view: the status and what the kind read from the reply (item_view), nothing more."""

    view: ClassVar[str] = "plain"  # the view of report.js that draws a cell
    needs_katex: ClassVar[bool] = False  # the page embeds KaTeX (page/katex) when a dataset's renderer needs it
    needs_highlight: ClassVar[bool] = False  # the page embeds highlight.js (page/highlight) likewise
    normalized_columns: ClassVar[tuple[str, ...]] = ()  # B3 columns `fields` reads beside the B4 row's
    match_parameters: ClassVar[tuple[str, ...]] = ()  # B4's parameters (its artifact header's) `fields` reads likewise

    def fields(self, matched: dict[str, Any]) -> dict[str, Any]:
        """What the view shows of one B4 row (with its normalized_columns of B3 and match_parameters) beyond its status
        and reading (JSON values); a "reply" among them is shown in place of the raw reply (READABLE_REPLY)."""
        return {}

    def gold(self, golds: Any) -> Any:
        """An item's golds (B1's) as the explorer shows them: as stored by default; a kind whose gold is JSON draws
        it."""
        return golds

    def figure_tables(self, report: dict[str, Any]) -> list[dict[str, Any]]:
        """The kind's own tables in its dataset's section (FigureTable dicts: title, columns, rows of cells — text,
        a count, None, or {"share", "interval"} — and notes under it); none by default."""
        return []


def header_parameters(document: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The parameters `names` (a renderer's match_parameters) as a stage artifact's header holds them (None: absent)."""
    parameters = (document.get("header") or {}).get("parameters", {})
    return {name: parameters.get(name) for name in names}


RENDERERS: Registry[type[ItemRenderer]] = Registry("item renderer", "stages.report.renderers")
register_renderer = RENDERERS.register


def renderer_for(kind: str) -> ItemRenderer:
    """The renderer registered for a kind's name; a kind defined outside stages/kinds without one is shown plain (every
    kind of stages/kinds has one: tests/stages/report/test_item_renderers.py)."""
    try:
        return RENDERERS.get(kind)()
    except UsageError:
        return ItemRenderer()
