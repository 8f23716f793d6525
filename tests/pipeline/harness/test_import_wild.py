"""`evalpipe import` on harness files as they exist in the wild — every lm-eval layout since 2023, compressed or renamed
files, NaN / Infinity, list filters, blank targets, wrongly configured multiple choice, OpenCompass subjective runs —
all written by the tools themselves (harness_files/make_wild.py); and refusals that write nothing."""
import gzip
import json
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from stages.io.artifacts import read_artifact_json
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.harness.imports import import_files, model_metrics, run_imported
from tests.pipeline.workspace import HARNESS_FILES, REPO

sys.path.insert(0, str(REPO / "bench"))
from official_squad import evaluate as official_squad_evaluate  # noqa: E402

HARNESS = HARNESS_FILES
LAYOUTS = {"0.4.0": HARNESS / "lm_eval_0.4.0", "0.4.2": HARNESS / "lm_eval_0.4.2",
           "0.4.13": HARNESS / "lm_eval_0.4.13" / "bert"}
WILD = LAYOUTS["0.4.13"]
SUBJECTIVE = next((HARNESS / "opencompass_subjective").glob("*/predictions/replay/alpaca_local.json"))
BLANK_TARGET = HARNESS / "lm_eval_blank_target" / "bert"
CHAT_TEMPLATES = next((HARNESS / "opencompass_chat_templates").glob("*/predictions"))
LFS_POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 48213\n"


def _report(outputs, dataset):
    return read_artifact_json(outputs / dataset / "B6_report.json")["report"]


def _samples(path: Path) -> list[dict]:
    """A samples file as the tool wrote it: JSON lines (≥ 0.4.3) or one pretty-printed JSON array, NaN included."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if text.lstrip().startswith("[") else [json.loads(line) for line in text.splitlines()]


def _samples_file(folder: Path, task: str) -> Path:
    return next(path for path in folder.iterdir() if task in path.name and "results" not in path.name)


def _official_squad(answers: dict[str, str], golds: dict[str, list[str]]) -> dict[str, float]:
    """The official SQuAD v1.1 script over these answers and golds."""
    dataset = [{"paragraphs": [{"qas": [{"id": i, "answers": [{"text": g} for g in golds[i]]} for i in answers]}]}]
    return official_squad_evaluate(dataset, answers)


def _imported_questions(tmp_path, dataset):
    path = tmp_path / "inputs" / dataset / "questions.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("version", sorted(LAYOUTS))
def test_every_lm_eval_layout_since_2023_rescores_to_the_official_numbers(tmp_path, version, capsys):
    folder = LAYOUTS[version]
    assert import_files(tmp_path, "lm-eval", _samples_file(folder, "squad_local"),
                   _samples_file(folder, "cmmlu_agronomy_local")) == 0
    assert "squad_local (bert)" in capsys.readouterr().out  # 0.4.0–0.4.2: the model from model_args pretrained=
    outputs = run_imported(tmp_path)
    rows = _samples(_samples_file(folder, "squad_local"))
    answers = {row["doc"]["id"]: row["filtered_resps"][0] for row in rows}
    official = _official_squad(answers, {row["doc"]["id"]: row["doc"]["answers"] for row in rows})
    metrics = model_metrics(outputs, "squad_local", "bert")
    assert 100 * metrics["exact_match"] == pytest.approx(official["exact_match"], abs=1e-9)
    assert 100 * metrics["f1"] == pytest.approx(official["f1"], abs=1e-9)
    choices = _samples(_samples_file(folder, "cmmlu_agronomy_local"))
    right = [max(range(4), key=lambda i: float(row["filtered_resps"][i][0])) == int(row["target"]) for row in choices]
    accuracy = model_metrics(outputs, "cmmlu_agronomy_local", "bert")["acc"]  # recomputed from resps
    assert accuracy == pytest.approx(sum(right) / len(right))
    assert _report(outputs, "cmmlu_agronomy_local")["harness"]["bert"]["metrics"]["acc"] == pytest.approx(accuracy)


def _zstd(data: bytes) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as stream:
        stream.write(data)
    return sink.getvalue().to_pybytes()


@pytest.mark.parametrize("form", ["gzip", "zstd", "renamed", "array"])
def test_compressed_renamed_or_array_samples_read_as_the_plain_file(tmp_path, form):
    plain = _samples_file(WILD, "squad_local")
    assert import_files(tmp_path / "plain", "lm-eval", plain) == 0
    data = plain.read_bytes()
    name, content = {"gzip": (plain.name + ".gz", gzip.compress(data)), "zstd": (plain.name + ".zst", _zstd(data)),
                     "renamed": ("bert_squad_local.jsonl", data),
                     "array": ("squad_local.json", json.dumps(_samples(plain), indent=2).encode())}[form]
    folder = tmp_path / "wild" / "bert"
    folder.mkdir(parents=True)
    (folder / name).write_bytes(content)
    shutil.copy(next(WILD.glob("results_*.json")), folder)
    assert import_files(tmp_path, "lm-eval", folder / name if form != "renamed" else folder) == 0
    assert _imported_questions(tmp_path, "squad_local") == _imported_questions(tmp_path / "plain", "squad_local")
    mine = tmp_path / "inputs" / "squad_local" / "predictions" / "bert.jsonl"
    assert mine.read_bytes() == (tmp_path / "plain" / "inputs" / "squad_local" / "predictions" / "bert.jsonl").read_bytes()


def test_nan_and_infinity_are_read_in_samples_and_results(tmp_path):
    samples = _samples_file(WILD, "regression_local")
    assert "NaN" in samples.read_text() and "Infinity" in samples.read_text()
    assert import_files(tmp_path, "lm-eval", samples) == 0
    assert len(_imported_questions(tmp_path, "regression_local")) == 6  # no row set aside for its NaN
    config = (tmp_path / "inputs" / "regression_local" / "dataset.toml").read_text()
    assert 'version = "0.4.13"' in config and 'mae = "inf"' in config  # the results file was read, Infinity and all
    outputs = run_imported(tmp_path)
    assert model_metrics(outputs, "regression_local", "bert")["exact_match"] == pytest.approx(4 / 6)  # "41", "a lot"
    assert _report(outputs, "regression_local")["harness"]["bert"]["metrics"] == {"mae": "inf"}
    assert "it reported mae inf" in (outputs / "regression_local" / "B6_report.txt").read_text()


def test_a_list_filter_and_a_second_filter_import_as_one_model_each(tmp_path, capsys):
    samples = _samples_file(WILD, "listfilter_local")
    rows = _samples(samples)
    assert {json.dumps(row["filtered_resps"])[:2] for row in rows if row["filter"] == "whole"} == {"[["}
    assert import_files(tmp_path, "lm-eval", samples) == 0
    outputs = run_imported(tmp_path)
    first = [row for row in rows if row["filter"] == "first"]
    official = _official_squad({row["doc"]["id"]: row["filtered_resps"][0] for row in first},
                               {row["doc"]["id"]: row["doc"]["answers"] for row in first})
    for model in ("bert.whole", "bert.first"):
        assert 100 * model_metrics(outputs, "listfilter_local", model)["exact_match"] == pytest.approx(
            official["exact_match"])
    harness = _report(outputs, "listfilter_local")["harness"]
    assert harness["bert.whole"]["metrics"] == {"exact_match": pytest.approx(official["exact_match"] / 100)}


def test_a_blank_target_falls_back_to_the_docs_references(tmp_path):
    samples = _samples_file(WILD, "truthful_local")
    rows = _samples(samples)
    assert {row["target"] for row in rows} == {" "}
    assert import_files(tmp_path, "lm-eval", samples) == 0
    questions = _imported_questions(tmp_path, "truthful_local")
    assert [q["answers"] for q in questions] == [row["doc"]["correct_answers"] for row in rows]
    outputs = run_imported(tmp_path)
    official = _official_squad({q["id"]: row["filtered_resps"][0] for q, row in zip(questions, rows)},
                               {q["id"]: q["answers"] for q in questions})
    assert 100 * model_metrics(outputs, "truthful_local", "bert")["exact_match"] == pytest.approx(official["exact_match"])
    assert _report(outputs, "truthful_local")["harness"]["bert"]["metrics"]["exact_match"] == 0.0  # lm-eval's own


def test_a_blank_target_with_no_reference_in_the_doc_is_scored_against_the_empty_answer_as_lm_eval_does(tmp_path):
    samples = _samples_file(BLANK_TARGET, "ner_local")
    rows = _samples(samples)
    assert sum(row["target"] == "" for row in rows) == 4  # sentences that name no person
    assert import_files(tmp_path, "lm-eval", samples) == 0
    questions = _imported_questions(tmp_path, "ner_local")
    assert [q["answers"] for q in questions] == [[row["target"]] for row in rows]
    assert 'blank_gold = "empty_answer"' in (tmp_path / "inputs" / "ner_local" / "dataset.toml").read_text()
    outputs = run_imported(tmp_path)
    metrics = model_metrics(outputs, "ner_local", "bert")
    lm_eval_own = _report(outputs, "ner_local")["harness"]["bert"]["metrics"]["exact_match"]
    assert metrics["rows"] == len(rows) and metrics["exact_match"] == pytest.approx(lm_eval_own) == 0.75
    assert metrics["exact_match"] == pytest.approx(sum(row["exact_match"] for row in rows) / len(rows))
    # F1 as SQuAD 2.0 scores an empty gold: 1 for the empty reply, 0 for any other; "Lovelace" is 2/3 of its gold
    assert metrics["f1"] == pytest.approx((6 + 2 / 3) / 8)


def test_opencompass_chat_models_whose_prompts_differ_only_by_their_templates_import_as_one_dataset(tmp_path):
    documents = {path.parent.name: json.loads(path.read_text(encoding="utf-8"))
                 for path in CHAT_TEMPLATES.glob("*/cmmlu_templates.json")}
    assert documents["qwen-chat"]["0"]["origin_prompt"] != documents["llama-chat"]["0"]["origin_prompt"]
    assert import_files(tmp_path, "opencompass", CHAT_TEMPLATES.parent) == 0
    questions = _imported_questions(tmp_path, "cmmlu_templates")
    assert len(questions) == 20
    for question in questions:
        for document in documents.values():
            assert question["question"] in document[question["id"]]["origin_prompt"]
        assert not any(mark in question["question"] for mark in ("<|im_start|>", "[INST]", "<|im_end|>", "[/INST]"))
        assert "<" not in question["options"][-1] and "[" not in question["options"][-1]
    for model, document in documents.items():
        lines = (tmp_path / "inputs" / "cmmlu_templates" / "predictions" / f"{model}.jsonl").read_text().splitlines()
        assert [json.loads(line)["prompt"] for line in lines] == [row["origin_prompt"] for row in document.values()]
    outputs = run_imported(tmp_path)
    for model in documents:
        own = json.loads((CHAT_TEMPLATES.parent / "results" / model / "cmmlu_templates.json").read_text())
        assert 100 * model_metrics(outputs, "cmmlu_templates", model)["accuracy"] == pytest.approx(own["accuracy"])
    assert {100 * model_metrics(outputs, "cmmlu_templates", m)["accuracy"] for m in documents} == {100.0, 70.0}


def test_choices_and_an_answer_index_in_the_doc_win_over_a_target_listing_every_letter(tmp_path):
    samples = _samples_file(WILD, "letters_local")
    rows = _samples(samples)
    assert {row["target"] for row in rows} == {"['A', 'B', 'C', 'D']"}
    assert import_files(tmp_path, "lm-eval", samples) == 0
    question = _imported_questions(tmp_path, "letters_local")[0]
    assert question["options"] == rows[0]["doc"]["choices"] and question["answer"] == "ABCD"[rows[0]["doc"]["answer"]]
    outputs = run_imported(tmp_path)
    right = ["ABCD".index(row["filtered_resps"][0]) == row["doc"]["answer"] for row in rows]
    assert model_metrics(outputs, "letters_local", "bert")["accuracy"] == pytest.approx(sum(right) / len(rows)) == 0.75
    assert _report(outputs, "letters_local")["harness"]["bert"]["metrics"]["exact_match"] == 1.0


def test_opencompass_subjective_predictions_import_as_instructions_for_the_judge(tmp_path, capsys):
    document = json.loads(SUBJECTIVE.read_text(encoding="utf-8"))
    assert all(set(row["gold"]) == {"capability", "question"} for row in document.values())  # the judge's hints
    assert import_files(tmp_path, "opencompass", SUBJECTIVE.parents[2]) == 0
    assert "kind instruction; no reference: add a [judge] table" in capsys.readouterr().out
    questions = _imported_questions(tmp_path, "alpaca_local")
    assert [q["question"] for q in questions] == [row["origin_prompt"] for row in document.values()]
    assert all("answers" not in q for q in questions)
    config = tmp_path / "inputs" / "alpaca_local" / "dataset.toml"
    with ChatServer() as judge:
        judge.replies["Response to grade:"] = "Rating: 4"
        config.write_text(config.read_text() + f'\n[judge]\nurl = "{judge.url}"\nmodel = "j"\ncriteria = ["score_1_5"]\n')
        outputs = run_imported(tmp_path)
        assert len(judge.chats()) == len(document)
    assert _report(outputs, "alpaca_local")["judge"]["models"]["replay"]["score_1_5"]["mean"] == 4.0


def _nothing_written(tmp_path) -> bool:
    return not (tmp_path / "inputs").exists() or not any((tmp_path / "inputs").rglob("*.jsonl"))


def test_a_git_lfs_pointer_stops_the_whole_import(tmp_path, capsys):
    folder = tmp_path / "clone" / "bert"
    shutil.copytree(WILD, folder)
    _samples_file(folder, "squad_local").write_text(LFS_POINTER)
    assert import_files(tmp_path, "lm-eval", tmp_path / "clone") == 2
    err = capsys.readouterr().err
    assert "a Git LFS pointer, not the file itself: run `git lfs pull`" in err and "nothing imported" in err
    assert _nothing_written(tmp_path)


def test_results_without_samples_say_log_samples_writes_them(tmp_path, capsys):
    folder = tmp_path / "run" / "bert"
    folder.mkdir(parents=True)
    shutil.copy(next(WILD.glob("results_*.json")), folder)
    assert import_files(tmp_path, "lm-eval", tmp_path / "run") == 2
    err = capsys.readouterr().err
    assert "holds lm-eval results" in err and "--log_samples" in err and len(err.strip().splitlines()) == 1
    assert _nothing_written(tmp_path)


def test_a_file_with_no_usable_row_is_refused_not_imported_empty(tmp_path, capsys):
    broken = tmp_path / "run" / "bert" / _samples_file(WILD, "squad_local").name
    broken.parent.mkdir(parents=True)
    broken.write_text("".join(line[:30] + "\n" for line in _samples_file(WILD, "squad_local").read_text().splitlines()))
    assert import_files(tmp_path, "lm-eval", broken) == 2
    assert "not an lm-eval samples file" in capsys.readouterr().err
    assert _nothing_written(tmp_path)


def test_lm_eval_0_3_write_out_files_are_refused_by_name(tmp_path, capsys):
    write_out = tmp_path / "squad_write_out_info.json"
    write_out.write_text("[]")
    assert import_files(tmp_path, "lm-eval", write_out) == 2
    assert "lm-eval 0.3 --write_out file" in capsys.readouterr().err


def test_every_conflict_is_found_before_anything_is_written(tmp_path, capsys):
    other = tmp_path / "other" / "bert"
    shutil.copytree(WILD, other)
    squad = _samples_file(other, "squad_local")
    squad.write_text("\n".join(squad.read_text().splitlines()[:-1]) + "\n")  # one question fewer
    assert import_files(tmp_path, "lm-eval", WILD, other) == 2
    err = capsys.readouterr().err
    assert "holds other questions than" in err and "model 'bert' twice with other answers" in err and "nothing imported" in err
    assert _nothing_written(tmp_path)


def test_one_run_logged_twice_imports_once(tmp_path, capsys):
    logs = HARNESS_FILES / "inspect"  # the same Inspect run as .eval and .json
    assert import_files(tmp_path, "inspect", logs, "--model", "bert") == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 1
    assert [p.name for p in (tmp_path / "inputs" / "squad_replay" / "predictions").iterdir()] == ["bert.jsonl"]
