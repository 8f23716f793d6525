"""pipeline/ names no kind, importer or leaderboard: no string of its code is a part's name or tool, and it imports no
part's own module — it looks parts up in the registries, so a new part touches its own folder and nothing here."""
import ast
from pathlib import Path

from stages.harness.imported import IMPORTERS
from stages.kinds.base import KINDS
from stages.leaderboards.board import LEADERBOARDS

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"


def _part_names() -> set[str]:
    return {*KINDS.names(), *IMPORTERS.names(), *LEADERBOARDS.names(), *(b.tool for _, b in LEADERBOARDS.items())}


def _part_modules() -> set[str]:
    """The modules parts live in (stages.kinds.qa, stages.harness.lm_eval, stages.leaderboards.arena_hard …)."""
    found = {type(part).__module__ for _, part in [*KINDS.items(), *LEADERBOARDS.items()]}
    found |= {part.__module__ for _, part in IMPORTERS.items()}
    return {".".join(module.split(".")[:3]) for module in found}


def test_no_module_of_pipeline_names_a_part():
    names, modules, found = _part_names(), _part_modules(), []
    for path in sorted(PIPELINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
            if isinstance(node, ast.ImportFrom) and node.module and any(
                    node.module == module or node.module.startswith(module + ".") for module in modules):
                found.append(f"{path.name}:{node.lineno}: imports {node.module}")
    assert found == []
