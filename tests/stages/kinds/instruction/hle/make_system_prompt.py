"""Writes system_prompt.json: SYSTEM_PROMPT as HLE's hle_eval/run_model_predictions.py defines it (centerforaisafety/hle
commit 87c92ea, read from a fork holding that commit), the string literal read by Python's own parser from the file.
Run: python3 make_system_prompt.py <hle checkout>/hle_eval/run_model_predictions.py (from this folder)."""
import ast
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"))
    value = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                 and [getattr(target, "id", None) for target in node.targets] == ["SYSTEM_PROMPT"])
    (HERE / "system_prompt.json").write_text(json.dumps({"SYSTEM_PROMPT": value}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
