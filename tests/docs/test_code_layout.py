"""docs/code-layout.md names every module of stages/ and pipeline/, so it stays true: a module of stages/<package>/ is
named (`module`) in its package's row — one of a subpackage beside the subpackage (`name/`) —, and a module of
pipeline/ as `module.py`."""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYOUT = (REPO / "docs" / "code-layout.md").read_text(encoding="utf-8")


def _rows() -> dict[str, str]:
    """Each stages package's row of the layers table, by package name."""
    return {found.group(1): found.group(0) for found in
            re.finditer(r"^\| \d+ \| `stages/(\w+)/` \|.*?(?=^\| \d+ \||^$)", LAYOUT, re.M | re.S)}


def _unnamed_in_stages() -> list[str]:
    rows, missing = _rows(), []
    for path in sorted((REPO / "stages").rglob("*.py")):
        parts = path.relative_to(REPO / "stages").with_suffix("").parts
        if len(parts) == 1 or parts[-1] == "__init__":
            continue
        row = rows.get(parts[0], "")
        if f"`{parts[-1]}`" not in row or any(f"`{folder}/`" not in row for folder in parts[1:-1]):
            missing.append("/".join(("stages", *parts)))
    return missing


def test_every_module_of_stages_is_named_in_its_packages_row():
    assert _rows(), "the layers table of docs/code-layout.md was not found"
    assert _unnamed_in_stages() == []


def test_every_module_of_pipeline_is_named():
    missing = [path.name for path in sorted((REPO / "pipeline").glob("*.py"))
               if path.stem != "__init__" and f"`{path.name}`" not in LAYOUT]
    assert missing == []
