"""The loglikelihood kind measured: HellaSwag's validation items (the first --items, all 10,042 by default) × their four
continuations asked of the n-gram test server (tests/pipeline/ngram_server.py, in a process of its own) by
`evalpipe run` (B1–B6) and by lm-eval 0.4.13's local-completions (its own hellaswag task, the same file) at the same
concurrency and prompts per request: wall time, requests per second, each one's peak memory (its process's max RSS),
and whether every loglikelihood agrees (1e-9).

Usage: python bench/bench_loglikelihood.py [--items 10042] [--concurrency 4] [--batch-size 16]
       [--lm-eval-python PYTHON]  (default: $EVALPIPE_LM_EVAL_PYTHON; a Python with lm-eval[api]==0.4.13 and torch)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from stages.io.artifacts import read_columns  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "real" / "base" / "hellaswag_validation.jsonl"
SIDE = REPO / "tests" / "stages" / "kinds" / "loglikelihood" / "lm_eval_side.py"
SERVER = ("import sys, time; sys.path.insert(0, sys.argv[1]); from tests.pipeline.ngram_server import NgramServer; "
          "s = NgramServer().__enter__(); print(s.url, flush=True); time.sleep(10 ** 6)")


def measured(command: list[str], log: Path, **kwargs) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of a command run to its end (it must succeed). Its stderr goes to `log`, a
    file: a pipe read only at the end fills (64 KiB of lm-eval's progress bars) and blocks the command for ever."""
    started = time.perf_counter()
    with log.open("wb") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, **kwargs)
        _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command[:3]} failed:\n{log.read_text(errors='replace')[-2000:]}")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=10042)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lm-eval-python", default=os.environ.get("EVALPIPE_LM_EVAL_PYTHON"))
    args = parser.parse_args()
    if not args.lm_eval_python:
        raise SystemExit("name a Python with lm-eval[api]==0.4.13: --lm-eval-python or EVALPIPE_LM_EVAL_PYTHON")
    work = Path(tempfile.mkdtemp(prefix="bench-loglikelihood-"))
    folder = work / "inputs" / "hellaswag"
    folder.mkdir(parents=True)
    lines = DATA.read_text(encoding="utf-8").split("\n")[:args.items]
    (folder / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(REPO)], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        (folder / "dataset.toml").write_text(
            f'kind = "loglikelihood"\ntask = "hellaswag"\n[generate]\nprotocol = "completions"\nurl = "{url}"\n'
            f'models = ["ngram"]\nconcurrency = {args.concurrency}\nbatch_size = {args.batch_size}\n')
        ours = measured([sys.executable, "-m", "pipeline", "run", "--inputs", str(work / "inputs"), "--outputs",
                         str(work / "outputs")], work / "evalpipe.stderr", cwd=REPO)
        env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
        theirs = measured([args.lm_eval_python, str(SIDE), "hellaswag", str(folder / "questions.jsonl"),
                           str(work / "lm_eval.jsonl"), "--url", url, "--concurrency", str(args.concurrency),
                           "--batch-size", str(args.batch_size)], work / "lm_eval.stderr", env=env, cwd=work)
    finally:
        server.terminate()
    b4 = read_columns(work / "outputs" / "hellaswag" / "ngram" / "B4_matches.json")
    ours_ll = dict(zip(b4["id"], b4["loglikelihoods"]))
    differing = compared = 0
    for line in (work / "lm_eval.jsonl").read_text().split("\n"):
        if line:
            doc, compared = json.loads(line), compared + 1
            found = ours_ll.get(str(doc["doc_id"]))
            expected = [ll for ll, _ in doc["results"]]
            differing += found is None or any(abs(a - b) > 1e-9 for a, b in zip(found, expected))
    requests = 4 * args.items
    print(f"HellaSwag, first {args.items} items ({requests} continuations), n-gram server, concurrency "
          f"{args.concurrency}, {args.batch_size} prompts per request; items compared: {compared}, whose loglikelihoods "
          f"differ: {differing}")
    print(f"{'run':<36}{'seconds':>9}{'continuations/s':>17}{'peak MiB':>10}")
    for name, (seconds, peak) in (("evalpipe run (B1–B6)", ours), ("lm-eval 0.4.13 local-completions", theirs)):
        print(f"{name:<36}{seconds:>9.1f}{requests / seconds:>17.0f}{peak:>10.0f}")
    print(f"ratio evalpipe / lm-eval wall time: {ours[0] / theirs[0]:.2f}")


if __name__ == "__main__":
    main()
