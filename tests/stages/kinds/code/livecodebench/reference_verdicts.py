"""Writes reference.json: LiveCodeBench's own verdicts on predictions.jsonl — lcb_runner's CodeGenerationProblem
decoding the rows, load_code_generation_dataset's date window, extract_code (OpenAIChat), check_correctness (timeout 6)
and compute_metrics_from_results. Run with LiveCodeBench's source on the path, in a venv with numpy and tqdm:
  cd <LiveCodeBench checkout> && /work/venvs/lcb/bin/python <this folder>/reference_verdicts.py
The row whose pickle names os.system is never given to lcb_runner (its loader would run it). lcb_runner reads a reply
whose reasoning never closes like any other (evalpipe: no answer)."""
import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).parent
ROWS = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines()]
SAFE = [row for row in ROWS if row["question_id"] != "abc002_evil"]
sys.modules["datasets"] = types.ModuleType("datasets")
sys.modules["datasets"].load_dataset = lambda *args, **kwargs: SAFE  # the published rows, read from the file

from lcb_runner.benchmarks.code_generation import load_code_generation_dataset  # noqa: E402
from lcb_runner.evaluation.compute_code_generation_metrics import check_correctness  # noqa: E402
from lcb_runner.evaluation.pass_k_utils import compute_metrics_from_results, estimate_pass_at_k  # noqa: E402
from lcb_runner.lm_styles import LMStyle  # noqa: E402
from lcb_runner.utils.extraction_utils import extract_code  # noqa: E402


def main() -> None:
    window = load_code_generation_dataset(start_date="2024-08-01", end_date="2024-12-31")
    problems = {problem.question_id: problem for problem in load_code_generation_dataset()}
    replies = [json.loads(line) for line in (HERE / "predictions.jsonl").read_text().splitlines()]
    verdicts, results = {}, {}
    for reply in replies:
        code = extract_code(reply["prediction"], LMStyle.OpenAIChat)  # the whole reply, as lcb_runner reads it
        sample = problems[reply["id"]].get_evaluation_sample()
        graded, metadata = check_correctness(sample, code, timeout=6, debug=False)
        passed = all(g is True or (not isinstance(g, bool) and g > 0) for g in graded)
        verdicts.setdefault(reply["id"], {})[str(reply["sample"])] = {"passed": passed, "graded": graded,
                                                                     "error": metadata.get("error_message")}
        results.setdefault(reply["id"], []).append(graded)
    metrics = compute_metrics_from_results(results, k_list=[1, 2, 3])
    estimates = {f"{n},{c},{k}": float(estimate_pass_at_k([n], [c], k)[0])
                 for n in (1, 3, 5, 10, 200) for c in range(0, n + 1, max(1, n // 5)) for k in (1, 2, 5, 10)
                 if k <= n}
    (HERE / "reference.json").write_text(json.dumps({
        "window_2024_08_01_to_2024_12_31": sorted(problem.question_id for problem in window),
        "verdicts": verdicts, "pass_at_k": {k: v for k, v in metrics.items() if k != "detail"},
        "detail": metrics["detail"], "estimate_pass_at_k": estimates}, indent=1, sort_keys=True, default=str) + "\n")


if __name__ == "__main__":
    main()
