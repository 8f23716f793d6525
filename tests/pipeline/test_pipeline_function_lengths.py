"""pipeline/ is the thin Luigi layer: no function (or method) in it runs over 60 lines, measured with `ast` from its
`def` line to its last line (decorators and docstring included)."""
import ast
from pathlib import Path

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
LIMIT = 60


def long_functions(source: str, limit: int = LIMIT) -> dict[str, int]:
    """Every function of `source` longer than `limit` lines (nested ones by their own length): qualified name →
    lines."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = f"{prefix}{getattr(child, 'name', '')}"
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                if child.end_lineno - start + 1 > limit:
                    found[name] = child.end_lineno - start + 1
            visit(child, f"{name}." if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  else prefix)

    visit(ast.parse(source), "")
    return found


def _function(name: str, lines: int, indent: str = "") -> str:
    """A function of exactly `lines` lines (its def and lines - 1 statements)."""
    return f"{indent}def {name}(self=None):\n" + "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))


def test_the_measure_finds_a_long_function_and_a_long_method_only():
    source = (_function("short", 3) + _function("exactly", LIMIT) + _function("long", LIMIT + 1)
              + "class C:\n" + _function("method", LIMIT + 5, "    ") + _function("fine", 2, "    "))
    assert long_functions(source) == {"long": LIMIT + 1, "C.method": LIMIT + 5}


def test_no_function_in_pipeline_is_over_60_lines():
    found = {f"{path.name}: {name}": lines for path in sorted(PIPELINE.rglob("*.py"))
             for name, lines in long_functions(path.read_text(encoding="utf-8")).items()}
    assert found == {}
