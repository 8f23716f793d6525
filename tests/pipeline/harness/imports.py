"""What the import tests share: `evalpipe import` into a workspace, the run over what it wrote, a model's metrics."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import run


def import_files(workspace: Path, tool: str, *args: Any) -> int:
    """`evalpipe import <tool> <args…>` into workspace/inputs; its exit code."""
    return main(["import", tool, *map(str, args), "--inputs", str(workspace / "inputs")])


def run_imported(workspace: Path) -> Path:
    """`evalpipe run` over what was imported, which must succeed; the outputs folder."""
    assert run(workspace) == 0
    return workspace / "outputs"


def model_metrics(outputs: Path, dataset: str, model: str) -> dict[str, Any]:
    return read_artifact_json(outputs / dataset / model / "B5_component_scores.json")["metrics"]
