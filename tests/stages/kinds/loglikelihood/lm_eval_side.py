"""Run with a Python that has lm-eval 0.4.13 (not evalpipe's): its own task objects' requests for the published files,
and optionally its local-completions model's answers to them from a server, written as JSON lines.

    python lm_eval_side.py TASK DATA_FILE OUT.jsonl [--fewshot DEV_FILE --num-fewshot N] [--subjects A,B]
        [--limit N] [--url URL --concurrency N --batch-size N [--tokenizer FOLDER]]
    python lm_eval_side.py rolling TEXTS.jsonl OUT.jsonl --url URL --max-length N  (loglikelihood_rolling, wikitext's
        figures)

Each line: {"doc_id", "subject", "requests": [[context, continuation], ...], "results": [[ll, greedy], ...],
"metrics": lm-eval's process_results of the doc (acc, acc_norm)}. --tokenizer: a Hugging Face tokenizer folder
(lm-eval's huggingface backend, with transformers) instead of the server's /tokenize."""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

YAMLS = {"hellaswag": "hellaswag/hellaswag.yaml", "arc_easy": "arc/arc_easy.yaml",
         "arc_challenge": "arc/arc_challenge.yaml", "mmlu": "mmlu/default/mmlu_{subject}.yaml",
         "winogrande": "winogrande/default.yaml"}


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


def local_completions(url: str, concurrency: int, batch_size: int, max_length: int, tokenizer: str | None):
    """lm-eval's local-completions model on the server: its /tokenize, or a local tokenizer folder."""
    from lm_eval.models.openai_completions import LocalCompletionsAPI

    chosen = {"tokenizer": tokenizer, "tokenizer_backend": "huggingface"} if tokenizer else {
        "tokenizer_backend": "remote"}
    return LocalCompletionsAPI(base_url=url + "/v1/completions", model="ngram", num_concurrent=concurrency,
                               batch_size=batch_size, max_length=max_length, **chosen)


def rolling_side(data: Path, out: Path, url: str, max_length: int, concurrency: int, batch_size: int,
                 tokenizer: str | None = None) -> None:
    """loglikelihood_rolling of each {"text"} of `data` from local-completions, with wikitext's process_results
    ({"page": text}) and lm-eval's aggregations: one line per document, then {"figures": …}."""
    import importlib.util

    import lm_eval.tasks
    from lm_eval.api.instance import Instance
    from lm_eval.api.metrics import bits_per_byte, weighted_perplexity

    spec = importlib.util.spec_from_file_location(
        "preprocess_wikitext", Path(lm_eval.tasks.__file__).parent / "wikitext" / "preprocess_wikitext.py")
    wikitext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wikitext)
    model = local_completions(url, concurrency, batch_size, max_length, tokenizer)
    texts = [json.loads(line)["text"] for line in data.read_text().split("\n") if line.strip()]
    instances = [Instance("loglikelihood_rolling", {"page": t}, (t,), i) for i, t in enumerate(texts)]
    results = model.loglikelihood_rolling(instances, disable_tqdm=True)
    per_doc = [wikitext.process_results({"page": t}, [ll]) for t, ll in zip(texts, results)]
    figures = {"word_perplexity": weighted_perplexity([d["word_perplexity"] for d in per_doc]),
               "byte_perplexity": weighted_perplexity([d["byte_perplexity"] for d in per_doc]),
               "bits_per_byte": bits_per_byte([d["bits_per_byte"] for d in per_doc])}
    with out.open("w") as written:
        for doc_id, (text, ll) in enumerate(zip(texts, results)):
            written.write(json.dumps({"doc_id": doc_id, "text": text, "loglikelihood": ll}) + "\n")
        written.write(json.dumps({"figures": figures}) + "\n")


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
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--tokenizer", help="a Hugging Face tokenizer folder (else the server's /tokenize)")
    args = parser.parse_args()
    if args.task == "rolling":
        rolling_side(args.data, args.out, args.url, args.max_length, args.concurrency, args.batch_size,
                     args.tokenizer)
        return
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
        model = local_completions(args.url, args.concurrency, args.batch_size, args.max_length, args.tokenizer)
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
