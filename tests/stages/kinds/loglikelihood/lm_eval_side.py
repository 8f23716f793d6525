"""Run with a Python that has lm-eval 0.4.13 (not evalpipe's): its own task objects' requests for the published files,
and optionally its local-completions model's answers to them from a server, written as JSON lines.

    python lm_eval_side.py TASK DATA_FILE OUT.jsonl [--fewshot DEV_FILE --num-fewshot N] [--subjects A,B]
        [--limit N] [--url URL --concurrency N --batch-size N]

Each line: {"doc_id", "subject", "requests": [[context, continuation], ...], "results": [[ll, greedy], ...],
"metrics": lm-eval's process_results of the doc (acc, acc_norm)}."""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

YAMLS = {"hellaswag": "hellaswag/hellaswag.yaml", "arc_easy": "arc/arc_easy.yaml",
         "arc_challenge": "arc/arc_challenge.yaml", "mmlu": "mmlu/default/mmlu_{subject}.yaml"}


def task_object(task: str, data: Path, split: str, fewshot: Path | None, num_fewshot: int, subject: str | None):
    """lm-eval's ConfigurableTask from its own YAML, its dataset read from local JSON lines (offline)."""
    import lm_eval.tasks
    from lm_eval.api.task import ConfigurableTask
    from lm_eval.tasks._yaml_loader import load_yaml

    folder = Path(lm_eval.tasks.__file__).parent
    config = load_yaml(folder / YAMLS[task].format(subject=subject), resolve_func=True)
    files = {split: str(data), **({"dev": str(fewshot)} if fewshot else {})}
    config.update({"dataset_path": "json", "dataset_name": None, "dataset_kwargs": {"data_files": files},
                   "num_fewshot": num_fewshot, "training_split": None,
                   **({"validation_split": split, "test_split": None} if split == "validation" else {})})
    return ConfigurableTask(config=config)


def requests_of(task, limit: int | None) -> dict[int, list]:
    task.build_all_requests(limit=limit, rank=0, world_size=1)
    found: dict[int, list] = {}
    for instance in task.instances:
        found.setdefault(instance.doc_id, []).append(instance)
    return {doc_id: sorted(items, key=lambda i: i.idx) for doc_id, items in found.items()}


def by_subject(path: Path, folder: Path) -> dict[str, Path]:
    """MMLU's file split per subject (lm-eval reads one dataset per subject)."""
    rows: dict[str, list[str]] = {}
    for line in path.read_text().split("\n"):
        if line.strip():
            rows.setdefault(json.loads(line)["subject"], []).append(line)
    out = {}
    for subject, lines in rows.items():
        out[subject] = folder / f"{path.stem}_{subject}.jsonl"
        out[subject].write_text("\n".join(lines) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("task")
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--fewshot", type=Path)
    parser.add_argument("--num-fewshot", type=int, default=0)
    parser.add_argument("--url")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--subjects", help="MMLU: only these subjects (comma-separated)")
    args = parser.parse_args()
    split = "test" if args.task == "mmlu" else "validation"
    work = Path(tempfile.mkdtemp())
    if args.task == "mmlu":
        tests, devs = by_subject(args.data, work), by_subject(args.fewshot, work) if args.fewshot else {}
        subjects = sorted(tests) if not args.subjects else args.subjects.split(",")
        parts = [(s, task_object("mmlu", tests[s], split, devs.get(s), args.num_fewshot, s)) for s in subjects]
    else:
        parts = [(None, task_object(args.task, args.data, split, None, 0, None))]
    model = None
    if args.url:
        from lm_eval.models.openai_completions import LocalCompletionsAPI

        model = LocalCompletionsAPI(base_url=args.url + "/v1/completions", model="ngram", tokenizer_backend="remote",
                                    num_concurrent=args.concurrency, batch_size=args.batch_size)
    with args.out.open("w") as out:
        for subject, task in parts:
            found = requests_of(task, args.limit)
            instances = [i for doc_id in sorted(found) for i in found[doc_id]]
            results = model.loglikelihood(instances, disable_tqdm=True) if model else [None] * len(instances)
            answers = dict(zip(map(id, instances), results))
            for doc_id in sorted(found):
                results = [answers[id(i)] for i in found[doc_id]]
                metrics = task.process_results(found[doc_id][0].doc, results) if model else None
                out.write(json.dumps({"doc_id": doc_id, "subject": subject,
                                      "requests": [list(i.arguments) for i in found[doc_id]],
                                      "results": results, "metrics": metrics}) + "\n")


if __name__ == "__main__":
    main()
