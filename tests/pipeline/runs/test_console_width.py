"""The console stays within 160 columns: the demo, every registered kind's conformance dataset (the kinds' registry
iterated, no list kept here) and a dataset of several replies per item, in one run, plain and --verbose."""
import json
import math
import shutil

import pytest

from stages.core.text_table import display_width
from stages.kinds.base import KINDS
from tests.pipeline.kinds.conformance import conformance_folder
from tests.pipeline.workspace import DEMO_INPUTS, run, write_jsonl

COLUMNS = 160


def _several_replies(folder):
    """r1: 20 items, model m8 with 8 replies each, right on item i's replies j < i % 9 (most right only sometimes)."""
    write_jsonl(folder / "questions.jsonl", [{"id": f"q{i}", "question": f"q {i}?", "answers": [f"a{i}"]}
                                             for i in range(20)])
    write_jsonl(folder / "predictions" / "m8.jsonl", [
        {"id": f"q{i}", "samples": [f"a{i}" if j < i % 9 else "no" for j in range(8)]} for i in range(20)])


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_every_console_line_of_every_kind_fits_160_columns(tmp_path, capsys, verbose):
    inputs = tmp_path / "inputs"
    shutil.copytree(DEMO_INPUTS, inputs)
    for name in KINDS.names():
        shutil.copytree(conformance_folder(name), inputs / f"kind_{name}", ignore=shutil.ignore_patterns("expected.json"))
    _several_replies(inputs / "r1")
    run(tmp_path, *(["--verbose"] if verbose else []))
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert any("m8: 20 items × up to 8 replies" in line for line in lines)
    assert any("kind_function_calling" in line for line in lines)
    wide = [line for line in lines if display_width(line) > COLUMNS]
    assert wide == [], json.dumps(wide, ensure_ascii=False, indent=1)


def test_the_plain_console_shows_bfcls_figures_and_a_corpus_perplexity(tmp_path, capsys):
    """Function calling: BFCL's summary columns and per-category accuracy under the table; a rolling loglikelihood
    dataset: word / byte perplexity and bits per byte, not acc / acc_norm n/a."""
    inputs = tmp_path / "inputs"
    shutil.copytree(conformance_folder("function_calling"), inputs / "fc", ignore=shutil.ignore_patterns("expected.json"))
    folder = inputs / "wiki"
    write_jsonl(folder / "questions.jsonl", [{"id": "d1", "text": "one two three"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "d1", "loglikelihoods": [-13.0]}])
    (folder / "dataset.toml").write_text('kind = "loglikelihood"\n[params]\ntask = "rolling"\n')
    assert run(tmp_path) == 0
    out = capsys.readouterr().out
    assert "Non-Live AST" in out and "category (accuracy [95% interval], items)" in out
    lines = out.splitlines()
    at = next(index for index, line in enumerate(lines) if line.startswith("wiki"))
    # 3 words, 13 bytes: word perplexity e^(13/3), byte perplexity e^(13/13), bits per byte 13 / 13 / ln 2
    assert "word_perplexity" in lines[at] and f"{math.exp(13 / 3):.4f}" in lines[at] and "acc_norm" not in out
    assert "byte_perplexity" in lines[at + 1] and f"{math.e:.4f}" in lines[at + 1]
    assert "bits_per_byte" in lines[at + 2] and f"{1 / math.log(2):.4f}" in lines[at + 2]
