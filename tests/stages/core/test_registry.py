"""One registry for kinds, importers and leaderboards: registered by decorator, looked up by name, each module that
holds a part imported only when its name is asked for (or every one, when all names are)."""
import sys
from pathlib import Path

import pytest

from stages.core.errors import UsageError
from stages.core.registry import Registry
from stages.harness.imported import IMPORTERS
from stages.kinds.base import KINDS
from stages.leaderboards.board import LEADERBOARDS


def test_a_part_is_found_by_the_name_it_registered():
    registry = Registry("widget", "stages.kinds", module="kind")
    registry.register("spinner")(spinner := object())
    assert registry.get("spinner") is spinner
    registry.register("spinner")(spinner)  # the same part again (a module imported twice) is no conflict
    with pytest.raises(ValueError, match="widget 'spinner' is registered twice"):
        registry.register("spinner")(object())


def test_an_unknown_name_is_one_usage_line_naming_the_known_ones():
    for registry in (KINDS, IMPORTERS, LEADERBOARDS):
        with pytest.raises(UsageError) as raised:
            registry.get("nope")
        assert str(raised.value) == f"unknown {registry.sort} 'nope' (known: {', '.join(registry.names())})"


def test_every_sort_lists_its_parts_found_in_its_package_without_a_second_list():
    """Every module of a sort's package that registers a part is found (each part's conformance, over these same
    names, is tested in test_parts_conformance.py and tests/pipeline/kinds/test_kind_conformance.py)."""
    import stages.kinds
    import stages.leaderboards

    kind_folders = {path.parent.name for path in Path(stages.kinds.__path__[0]).glob("*/kind.py")}
    assert {type(kind).__module__.split(".")[2] for _, kind in KINDS.items()} == kind_folders
    board_folders = {path.parent.name for path in Path(stages.leaderboards.__path__[0]).glob("*/leaderboard.py")}
    assert {type(board).__module__.split(".")[2] for _, board in LEADERBOARDS.items()} == board_folders
    assert all(kind.name == name for name, kind in KINDS.items())
    assert len({board.tool for _, board in LEADERBOARDS.items()}) == len(LEADERBOARDS.names())  # one tool each
    assert not set(IMPORTERS.names()) & {board.tool for _, board in LEADERBOARDS.items()}  # `import TOOL` is one


def test_a_name_imports_only_its_own_module(monkeypatch):
    """A fresh registry over stages.kinds: asking for numeric imports stages.kinds.numeric.kind, not math's."""
    import stages.kinds

    for name in [n for n in sys.modules if n.startswith(("stages.kinds.numeric", "stages.kinds.math"))]:
        monkeypatch.delitem(sys.modules, name)
    for package in ("numeric", "math"):  # the parent's attributes come back with the modules
        monkeypatch.setattr(stages.kinds, package, getattr(stages.kinds, package, None), raising=False)
    registry = Registry("kind", "stages.kinds", module="kind")
    monkeypatch.setattr("stages.kinds.base.KINDS", registry)
    assert registry.get("numeric").name == "numeric"
    assert "stages.kinds.numeric.kind" in sys.modules and "stages.kinds.math.kind" not in sys.modules
