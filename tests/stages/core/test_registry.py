"""One registry for kinds, importers and leaderboards: registered by decorator, looked up by name, each module that
holds a part imported only when its name is asked for (or every one, when all names are)."""
import sys

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
    with pytest.raises(UsageError) as raised:
        KINDS.get("qaa")
    message = str(raised.value)
    assert message.startswith("unknown kind 'qaa' (known: annotation, code, dialogue, fact_verification, ifeval, ")
    assert "math, multiple_choice, numeric, qa)" in message
    with pytest.raises(UsageError, match=r"unknown harness 'nope' \(known: inspect, lm-eval, opencompass\)"):
        IMPORTERS.get("nope")


def test_every_sort_lists_its_parts_without_a_second_list():
    assert KINDS.names() == ["annotation", "code", "dialogue", "fact_verification", "ifeval", "instruction",
                             "loglikelihood", "math", "multiple_choice", "numeric", "qa"]
    assert IMPORTERS.names() == ["inspect", "lm-eval", "opencompass"]
    assert LEADERBOARDS.names() == ["alignbench", "alpaca_eval", "arena_hard", "mt_bench"]
    assert {name: board.tool for name, board in LEADERBOARDS.items()} == {
        "alignbench": "alignbench", "alpaca_eval": "alpaca-eval", "arena_hard": "arena-hard", "mt_bench": "mt-bench"}


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
