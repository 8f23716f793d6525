"""Parity with lm-eval 0.4.13 itself: the contexts and continuations evalpipe builds equal lm-eval's own task objects'
requests on every item of the published files, and evalpipe's loglikelihoods, greedy flags and acc / acc_norm choices
equal what lm-eval's local-completions gets from the same n-gram server. lm-eval runs in its own Python (it brings
torch): EVALPIPE_LM_EVAL_PYTHON names it, else the current Python when it has lm_eval; skipped otherwise."""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stages.chat.generation import read_generate_config
from stages.kinds.loglikelihood.figures import choice_picks
from stages.kinds.loglikelihood.items import load_items
from stages.kinds.loglikelihood.kind import Loglikelihood
from stages.kinds.loglikelihood.live import item_pairs
from stages.kinds.loglikelihood.loglikelihoods import ask_loglikelihoods
from tests.pipeline.ngram_server import NgramServer

SIDE = Path(__file__).with_name("lm_eval_side.py")
FILES = {"hellaswag": "hellaswag_validation.jsonl", "arc_easy": "arc_easy_validation.jsonl",
         "arc_challenge": "arc_challenge_validation.jsonl", "mmlu": "mmlu/test.jsonl",
         "winogrande": str(Path(__file__).with_name("winogrande_validation.jsonl"))}  # our own sentences
SUBJECTS = "abstract_algebra,high_school_us_history,world_religions"  # short, the longest contexts, and another


@pytest.fixture(scope="module")
def lm_eval_python() -> str:
    named = os.environ.get("EVALPIPE_LM_EVAL_PYTHON")
    if named:
        return named
    if importlib.util.find_spec("lm_eval") is not None:
        return sys.executable
    pytest.skip("lm-eval 0.4.13 is not installed (set EVALPIPE_LM_EVAL_PYTHON to a Python that has it)")


def lm_eval_side(python: str, task: str, base: Path, out: Path, *extra: str) -> list[dict]:
    args = [FILES[task]] if task != "mmlu" else ["mmlu/test.jsonl", "--fewshot", str(base / "mmlu/dev.jsonl"),
                                                  "--num-fewshot", "5", "--subjects", SUBJECTS]
    return _side_records(python, task, base / args[0], out, *args[1:], *extra)


def lm_eval_rolled(python: str, texts: list[str], folder: Path, *extra: str) -> list[dict]:
    """lm-eval's rolling loglikelihood of each text (a record each, then one of the corpus figures)."""
    data = folder / "texts.jsonl"
    data.write_text("".join(json.dumps({"text": text}) + "\n" for text in texts))
    return _side_records(python, "rolling", data, folder / "rolled.jsonl", *extra)


def _side_records(python: str, task: str, data: Path, out: Path, *extra: str) -> list[dict]:
    """lm_eval_side.py run on `data` for `task`, and the JSON lines it wrote to `out`."""
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    subprocess.run([python, str(SIDE), task, str(data), str(out), *extra], check=True, env=env, capture_output=True,
                   timeout=900, cwd=out.parent)
    return [json.loads(line) for line in out.read_text().split("\n") if line]


def evalpipe_items(task: str, base: Path) -> dict[tuple, dict]:
    """evalpipe's items keyed as lm-eval's docs: (subject, position within the subject)."""
    params = {**Loglikelihood.defaults, "task": task, "num_fewshot": 5 if task == "mmlu" else 0,
              "fewshot_file": "dev.jsonl"}
    columns = load_items(base / FILES[task], params).columns
    items, seen = {}, {}
    for pairs, choices, gold, subject in zip(item_pairs(columns), *(columns[name] for name in (
            "choices", "gold", "subject"))):
        position = seen[subject] = seen.get(subject, -1) + 1
        items[(subject, position)] = {"requests": [list(pair) for pair in pairs], "choices": choices, "gold": gold}
    return items


@pytest.mark.parametrize("task", list(FILES))
def test_every_request_equals_lm_evals_own(task, lm_eval_python, real_data, tmp_path):
    base = real_data / "base"
    theirs = lm_eval_side(lm_eval_python, task, base, tmp_path / "requests.jsonl")
    ours = evalpipe_items(task, base)
    expected = {"hellaswag": 10042, "arc_easy": 570, "arc_challenge": 299, "mmlu": 100 + 204 + 171,
                "winogrande": 11}[task]
    assert len(theirs) == expected
    differing = [doc for doc in theirs if ours[(doc["subject"], doc["doc_id"])]["requests"] != doc["requests"]]
    assert differing == []


@pytest.mark.parametrize(("task", "extra"), [("arc_challenge", ()), ("hellaswag", ("--limit", "150")),
                                             ("winogrande", ("--batch-size", "3")),
                                             ("mmlu", ("--limit", "40", "--concurrency", "4", "--batch-size", "5"))])
def test_same_loglikelihoods_and_choices_as_local_completions(task, extra, lm_eval_python, real_data, tmp_path):
    base = real_data / "base"
    ours = evalpipe_items(task, base)
    with NgramServer() as server:
        theirs = lm_eval_side(lm_eval_python, task, base, tmp_path / "answers.jsonl", "--url", server.url, *extra)
        config = read_generate_config({"protocol": "completions", "url": server.url, "models": ["ngram"],
                                       "concurrency": 3, "batch_size": 7}, "test")
        pairs = [tuple(r) for doc in theirs for r in doc["requests"]]
        found = ask_loglikelihoods(pairs, config, "ngram", tmp_path / "journal.jsonl")
    assert not found.failed and len(theirs) > (10 if task == "winogrande" else 30)
    for doc in theirs:
        asked = [found.found[tuple(r)] for r in doc["requests"]]
        assert [greedy for _, greedy in asked] == [greedy for _, greedy in doc["results"]]
        assert [ll for ll, _ in asked] == pytest.approx([ll for ll, _ in doc["results"]], abs=1e-9)
        item = ours[(doc["subject"], doc["doc_id"])]
        picks = choice_picks([ll for ll, _ in asked], item["choices"])
        right = {"acc": picks["chosen"] == item["gold"], "acc_norm": picks["chosen_norm"] == item["gold"]}
        assert {figure: float(right[figure]) for figure in doc["metrics"]} == doc["metrics"], doc["doc_id"]


@pytest.mark.parametrize("max_length", [24, 2048])
def test_same_rolling_loglikelihoods_and_perplexities_as_local_completions(max_length, lm_eval_python, tmp_path):
    from stages.kinds.loglikelihood.perplexity import byte_count, corpus_sums, perplexity_figures, word_count
    from stages.kinds.loglikelihood.rolling import ask_rolling
    from tests.stages.kinds.loglikelihood.test_loglikelihood_rolling import CAFE, LONG

    texts = [LONG * 4, CAFE, "The", " café\n\n naïve "]
    with NgramServer() as server:
        *docs, last = lm_eval_rolled(lm_eval_python, texts, tmp_path, "--url", server.url, "--max-length",
                                     str(max_length), "--concurrency", "2", "--batch-size", "3")
        config = read_generate_config({"protocol": "completions", "url": server.url, "models": ["ngram"],
                                       "concurrency": 3, "batch_size": 5, "max_length": max_length}, "test")
        found = ask_rolling(texts, config, "ngram", tmp_path / "journal.jsonl")
    assert not found.failed and [doc["text"] for doc in docs] == texts
    assert [found.found[text] for text in texts] == pytest.approx([doc["loglikelihood"] for doc in docs], abs=1e-9)
    sums = corpus_sums([found.found[text] for text in texts], [word_count(t) for t in texts],
                       [byte_count(t) for t in texts])
    assert perplexity_figures(sums) == pytest.approx(last["figures"], rel=1e-12)


def _prompts(server) -> list[tuple[int, ...]]:
    return sorted({tuple(p) for r in server.requests if r["path"] == "/v1/completions" for p in r["body"]["prompt"]})


def test_a_tokenizer_folder_sends_the_same_prompts_as_lm_evals_huggingface_backend(lm_eval_python, real_data,
                                                                                   tmp_path):
    pytest.importorskip("tokenizers")
    from tests.stages.kinds.loglikelihood.tokenizer_folder import make_tokenizer_folder

    folder = make_tokenizer_folder(tmp_path / "tokenizer")
    base = real_data / "base"
    with NgramServer() as server:
        theirs = lm_eval_side(lm_eval_python, "arc_easy", base, tmp_path / "answers.jsonl", "--url", server.url,
                              "--limit", "60", "--concurrency", "2", "--batch-size", "4", "--tokenizer", str(folder))
        sent_by_lm_eval = _prompts(server)
    with NgramServer() as server:
        config = read_generate_config({"protocol": "completions", "url": server.url, "models": ["ngram"],
                                       "concurrency": 3, "batch_size": 7, "tokenizer": str(folder)}, "test")
        pairs = [tuple(r) for doc in theirs for r in doc["requests"]]
        found = ask_loglikelihoods(pairs, config, "ngram", tmp_path / "journal.jsonl")
        assert all(r["path"] == "/v1/completions" for r in server.requests)
        assert _prompts(server) == sent_by_lm_eval and len(sent_by_lm_eval) > 200
    for doc in theirs:
        asked = [found.found[tuple(r)] for r in doc["requests"]]
        assert [greedy for _, greedy in asked] == [greedy for _, greedy in doc["results"]]
        assert [ll for ll, _ in asked] == pytest.approx([ll for ll, _ in doc["results"]], abs=1e-9)


def test_rolling_with_a_tokenizer_folder_equals_lm_evals(lm_eval_python, tmp_path):
    pytest.importorskip("tokenizers")
    from stages.kinds.loglikelihood.rolling import ask_rolling
    from tests.stages.kinds.loglikelihood.test_loglikelihood_rolling import CAFE, LONG
    from tests.stages.kinds.loglikelihood.tokenizer_folder import make_tokenizer_folder

    folder = make_tokenizer_folder(tmp_path / "tokenizer")
    texts = [LONG * 3, CAFE, " café\n\n naïve "]
    with NgramServer() as server:
        docs = lm_eval_rolled(lm_eval_python, texts, tmp_path, "--url", server.url, "--max-length", "20",
                              "--tokenizer", str(folder))[:-1]
        config = read_generate_config({"protocol": "completions", "url": server.url, "models": ["ngram"],
                                       "max_length": 20, "tokenizer": str(folder)}, "test")
        found = ask_rolling(texts, config, "ngram", tmp_path / "journal.jsonl")
    assert [found.found[text] for text in texts] == pytest.approx([doc["loglikelihood"] for doc in docs], abs=1e-9)
