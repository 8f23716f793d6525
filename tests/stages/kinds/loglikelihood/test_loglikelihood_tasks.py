"""The items of the built-in tasks and the generic form, against prompts written out by hand from lm-eval 0.4.13's
task definitions; ids (the data's own, else the row's position from 0) and records set aside with line and reason."""
import json
from pathlib import Path

import pytest

from stages.core.errors import UsageError
from stages.kinds import get_kind
from stages.kinds.loglikelihood.items import load_items
from stages.kinds.loglikelihood.kind import Loglikelihood
from stages.kinds.loglikelihood.tasks import hellaswag_preprocess


def _write(path, rows):
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return path


def _items(path, **params):
    return load_items(path, {**Loglikelihood.defaults, **params})


def test_hellaswag_preprocessing_as_lm_eval_writes_it():
    assert hellaswag_preprocess(" Step one [title] Step two [header] done  now ") == "Step one. Step two done now"


def test_hellaswag_context_capitalizes_ctx_b_like_python_and_ids_are_positions(tmp_path):
    rows = [{"ind": 7, "activity_label": "Roof", "ctx_a": "A man climbs.", "ctx_b": "the MAN", "label": "1",
             "endings": ["falls [title] down.", " waves."]},
            {"ind": 7, "activity_label": "X", "ctx_a": "a", "ctx_b": "", "label": "0", "endings": ["b"]}]
    columns = _items(_write(tmp_path / "q.jsonl", rows), task="hellaswag").columns
    assert columns["id"] == ["0", "1"]  # `ind` repeats: the row's position, as lm-eval's doc_id
    assert columns["question"] == ["Roof: A man climbs. The man", "X: a"]  # stripped
    assert columns["continuations"][0] == [" falls. down.", " waves."] and columns["gold"] == [1, 0]


def test_arc_context_and_gold_from_the_answer_key(tmp_path):
    row = {"id": "Q1", "question": "Which is hot?", "answerKey": "2",
           "choices": {"text": ["ice", "fire"], "label": ["1", "2"]}}
    columns = _items(_write(tmp_path / "q.jsonl", [row]), task="arc_easy").columns
    assert columns["id"] == ["Q1"] and columns["question"] == ["Question: Which is hot?\nAnswer:"]
    assert columns["continuations"] == [[" ice", " fire"]] and columns["gold"] == [1]


def test_mmlu_five_shot_takes_the_subjects_own_first_dev_rows(tmp_path):
    def row(question, subject, answer):
        return {"question": question, "subject": subject, "choices": ["w", "x", "y", "z"], "answer": answer}

    _write(tmp_path / "dev.jsonl", [row("Other?", "anatomy", 0), row(" D1? ", "abstract_algebra", 1),
                                    row("D2?", "abstract_algebra", 3), row("D3?", "abstract_algebra", 0)])
    path = _write(tmp_path / "test.jsonl", [row("  Q? ", "abstract_algebra", 2)])
    columns = _items(path, task="mmlu", num_fewshot=2, fewshot_file="dev.jsonl").columns
    options = "\nA. w\nB. x\nC. y\nD. z\nAnswer:"
    assert columns["question"] == [
        "The following are multiple choice questions (with answers) about abstract algebra.\n\n"
        f"D1?{options} B\n\nD2?{options} D\n\nQ?{options}"]
    assert columns["continuations"] == [[" A", " B", " C", " D"]] and columns["choices"] == [["A", "B", "C", "D"]]
    assert columns["subject"] == ["abstract_algebra"] and columns["gold"] == [2] and columns["id"] == ["0"]
    short = _items(path, task="mmlu", num_fewshot=4, fewshot_file="dev.jsonl")
    assert short.accepted == 0 and [(r.line, r.reason) for r in short.rejects] == [
        (1, "dev.jsonl has fewer than 4 examples for abstract_algebra")]


def test_generic_template_with_few_shot_and_gold_as_text(tmp_path):
    _write(tmp_path / "shots.jsonl", [{"q": "2+2", "options": ["3", "4"], "answer": 1}])
    path = _write(tmp_path / "q.jsonl", [{"q": "1+1", "options": ["2", "5"], "answer": "1"},
                                         {"q": "3+3", "options": ["six", "seven"], "answer": "six"},
                                         {"q": "2+3", "options": ["2", "5"], "answer": "5"}])
    result = _items(path, context_template="Q: {q}\nA:", choices="options", gold="answer", target_delimiter=" ",
                    num_fewshot=1, fewshot_file="shots.jsonl", fewshot_separator="\n###\n")
    assert result.columns["question"][0] == "Q: 2+2\nA: 4\n###\nQ: 1+1\nA:"
    # as lm-eval reads a target: digits are an index, other text names a choice
    assert result.columns["gold"] == [1, 0]
    assert [(r.line, r.reason) for r in result.rejects] == [(3, "answer 5 is not a choice's index (0–1)")]


def test_records_that_make_no_item_are_set_aside_with_line_and_reason(tmp_path):
    good = {"id": "a", "question": "Q", "answerKey": "A", "choices": {"text": ["x"], "label": ["A"]}}
    path = _write(tmp_path / "q.jsonl", [good, {**good, "id": "b", "answerKey": "E"}, "{not json", good,
                                         {**good, "id": "c", "choices": {"text": [], "label": []}}])
    result = _items(path, task="arc_challenge")
    assert result.columns["id"] == ["a"] and result.input_rows == 5
    reasons = {r.line: r.reason for r in result.rejects}
    assert set(reasons) == {2, 3, 4, 5}
    assert "answerKey 'E'" in reasons[2] and reasons[4] == "duplicate id 'a'" and "choices.text" in reasons[5]


def test_an_unknown_task_is_refused_when_parameters_are_read():
    assert get_kind("loglikelihood").param_rules["task"]("piqa").startswith("is none of the built-in tasks")


def test_a_missing_fewshot_file_fails_the_dataset_in_one_line(tmp_path):
    path = _write(tmp_path / "q.jsonl", [{"question": "q", "subject": "anatomy", "choices": list("abcd"),
                                          "answer": 0}])
    with pytest.raises(UsageError, match="num_fewshot = 5 needs fewshot_file"):
        get_kind("loglikelihood").load_gold(path, {}, None, {"task": "mmlu", "num_fewshot": 5})


def test_the_published_files_read_whole(real_data):
    base = real_data / "base"
    arc = _items(base / "arc_easy_validation.jsonl", task="arc_easy")
    assert arc.accepted == 570 and not arc.rejects and arc.columns["id"][0] == "MCAS_2000_4_6"
    hellaswag = _items(base / "hellaswag_validation.jsonl", task="hellaswag")
    assert hellaswag.accepted == 10042 and hellaswag.columns["id"][-1] == "10041"
    mmlu = _items(base / "mmlu" / "test.jsonl", task="mmlu", num_fewshot=5, fewshot_file="dev.jsonl")
    assert mmlu.accepted == 14042 and len(set(mmlu.columns["subject"])) == 57


WINOGRANDE = Path(__file__).with_name("winogrande_validation.jsonl")  # our own sentences, in the published format


def test_winogrande_puts_each_option_in_its_own_context_before_one_shared_continuation(tmp_path):
    row = {"sentence": "The trophy did not fit in the case because _ was too big.", "option1": "the trophy",
           "option2": "the case", "answer": "1"}
    columns = _items(_write(tmp_path / "q.jsonl", [row, {**row, "answer": "2"}]), task="winogrande").columns
    contexts = ["The trophy did not fit in the case because the trophy",
                "The trophy did not fit in the case because the case"]
    assert columns["contexts"] == [contexts, contexts] and columns["choices"] == [contexts, contexts]
    assert columns["continuations"] == [[" was too big."] * 2] * 2 and columns["gold"] == [0, 1]
    assert columns["question"] == ["The trophy did not fit in the case because "] * 2 and columns["id"] == ["0", "1"]


def test_winogrande_few_shot_writes_the_gold_filled_sentence(tmp_path):
    _write(tmp_path / "train.jsonl", [{"sentence": "A _ b.", "option1": "x", "option2": "y", "answer": "2"}])
    path = _write(tmp_path / "q.jsonl", [{"sentence": "C _ d", "option1": "u", "option2": "v", "answer": "1"}])
    columns = _items(path, task="winogrande", num_fewshot=1, fewshot_file="train.jsonl").columns
    assert columns["contexts"] == [["A y b.\n\nC u", "A y b.\n\nC v"]] and columns["continuations"] == [[" d", " d"]]
    assert columns["choices"] == [["C u", "C v"]]  # acc_norm's lengths: lm-eval's doc_to_choice, without the shots


def test_winogrande_records_without_a_blank_or_answer_are_set_aside(tmp_path):
    good = {"sentence": "A _ b.", "option1": "x", "option2": "y", "answer": "1"}
    path = _write(tmp_path / "q.jsonl", [good, {**good, "sentence": "no blank"}, {**good, "answer": "3"},
                                         {**good, "answer": 2}, {**good, "option2": None}])
    loaded = _items(path, task="winogrande")
    assert loaded.columns["gold"] == [0, 1]
    assert [(r.line, r.reason) for r in loaded.rejects] == [
        (2, "sentence has no blank (_)"), (3, "answer '3' is neither \"1\" nor \"2\""), (5, "option2 is not text")]


def test_the_generic_form_with_a_continuation_template_is_winogrande_by_fields(tmp_path):
    rows = [json.loads(line) for line in WINOGRANDE.read_text().split("\n") if line]
    split = [{"before": r["sentence"][:r["sentence"].index("_")], "options": [r["option1"], r["option2"]],
              "after": r["sentence"][r["sentence"].index("_") + 1:].strip(), "gold": int(r["answer"]) - 1}
             for r in rows]
    generic = _items(_write(tmp_path / "q.jsonl", split), context_template="{before}", choices="options",
                     continuation_template="{after}").columns
    built_in = _items(WINOGRANDE, task="winogrande").columns
    for name in ("contexts", "continuations", "choices", "gold", "question"):
        assert generic[name] == built_in[name], name
