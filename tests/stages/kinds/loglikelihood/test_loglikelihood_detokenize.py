"""`[params] detokenize = "wikitext"`: each page asked as lm-eval's wikitext task asks it (its wikitext_detokenizer's
strings: hand-worked examples always, lm-eval's own function on the same pages where EVALPIPE_LM_EVAL_PYTHON is set),
its words and bytes counted on the page as written."""
import json
import os
import subprocess

import pytest

from stages.kinds.loglikelihood.detokenizers import wikitext_detokenize
from stages.kinds.loglikelihood.items import load_items
from stages.kinds.loglikelihood.kind import Loglikelihood

PAGES = [
    " = = Early life = = \n",
    "It was 1 @,@ 000 km long , and 3 @.@ 5 m wide .",
    'the players \' union ( UK ) said " no " .',
    "a N b",
    "a temperature of 40 ° C",
    "John 's car",
    " = = = = Deep = = = = \n The 2 @-@ 1 win ; a draw ! Why ? [ 1 ] { x } 'quoted'\n",
    "the boys ' game /' 5/ ended : 3 – 1 . Then",
    "Élan , café ; 東京 ( capital ) .",
    "unbalanced ( bracket and \" quote",
]
HAND_WORKED = [
    " == Early life ==\n",
    "It was 1,000 km long, and 3.5 m wide .",
    'the players\' union (UK) said "no" .',
    "a 1 b",
    "a temperature of 40°C",
    "John's car",
]


def test_hand_worked_wikitext_pages():
    assert [wikitext_detokenize(page) for page in PAGES[:len(HAND_WORKED)]] == HAND_WORKED


def test_a_rolling_item_asks_the_detokenized_page_and_counts_the_page_as_written(tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text("".join(json.dumps({"text": page}) + "\n" for page in PAGES[:2]))
    params = {**Loglikelihood.defaults, "task": "rolling", "detokenize": "wikitext"}
    columns = load_items(path, params).columns
    assert columns["question"] == HAND_WORKED[:2] and columns["choices"] == [[PAGES[0]], [PAGES[1]]]
    plain = load_items(path, {**params, "detokenize": ""}).columns
    assert plain["question"] == PAGES[:2]


def test_detokenize_is_for_the_rolling_task_only(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"question": "Q", "choices": ["a"], "gold": 0}) + "\n")
    with pytest.raises(ValueError, match="is for task = \"rolling\""):
        load_items(path, {**Loglikelihood.defaults, "detokenize": "wikitext"})
    assert Loglikelihood.param_rules["detokenize"]("moses") is not None


def test_the_same_strings_as_lm_evals_wikitext_detokenizer(tmp_path):
    python = os.environ.get("EVALPIPE_LM_EVAL_PYTHON")
    if not python:
        pytest.skip("EVALPIPE_LM_EVAL_PYTHON names no Python with lm-eval 0.4.13")
    script = ("import importlib.util, json, sys, pathlib, lm_eval.tasks\n"
              "path = pathlib.Path(lm_eval.tasks.__file__).parent / 'wikitext' / 'preprocess_wikitext.py'\n"
              "spec = importlib.util.spec_from_file_location('w', path); m = importlib.util.module_from_spec(spec)\n"
              "spec.loader.exec_module(m)\n"
              "print(json.dumps([m.wikitext_detokenizer({'page': p}) for p in json.load(sys.stdin)]))\n")
    done = subprocess.run([python, "-c", script], input=json.dumps(PAGES), capture_output=True, text=True, check=True,
                          timeout=300)
    assert [wikitext_detokenize(page) for page in PAGES] == json.loads(done.stdout)
