"""#80: SimpleQA and Humanity's Last Exam as tasks of the instruction kind, judged end to end by a scripted judge on
127.0.0.1: each script's reading of the grader's reply and its figures, a reply whose reasoning never closes counted
without an answer, a judge call that fails left unscored (the outage rule), and HLE's image questions set aside."""
import json

from stages.io.artifacts import read_artifact_json
from tests.pipeline.workspace import run

SIMPLEQA_TEMPLATE = ("Grade the answer.\nQuestion: {question}\nGold target: {target}\nPredicted answer: "
                     "{predicted_answer}\nReply A (CORRECT), B (INCORRECT) or C (NOT_ATTEMPTED).\n")
SIMPLEQA_ROWS = [("Capital of France?", "Paris", "Paris"), ("Capital of Italy?", "Rome", "Milan"),
                 ("Who wrote Hamlet?", "Shakespeare", "I don't know"), ("Largest city of France?", "Paris", "Lyon"),
                 ("Capital of Spain?", "Madrid", "<think>Madrid or Barcelona... let me think"),
                 ("Capital of Peru?", "Lima", "ALWAYS500 Lima")]
GRADES = {"Predicted answer: Paris": "A", "Predicted answer: Milan": "B", "Predicted answer: I don't know": "C",
          "Predicted answer: Lyon": "The grade is INCORRECT"}  # simpleqa_eval.py reads the C of INCORRECT


def _dataset(tmp_path, name, files, toml):
    folder = tmp_path / "inputs" / name
    (folder / "predictions").mkdir(parents=True)
    for path, text in files.items():
        (folder / path).write_text(text, encoding="utf-8")
    (folder / "dataset.toml").write_text(toml, encoding="utf-8")
    return folder


def _judge(server, template_file):
    return (f'kind = "instruction"\nmax_unscored_share = 0.5\n[judge]\nurl = "{server.url}"\nmodel = "grader"\n'
            f'retries = 1\nbackoff = 0.01\ntemplate_file = "{template_file}"\n')


def test_simpleqa_is_graded_and_figured_as_simple_evals_does(tmp_path, chat_server):
    chat_server.replies.update(GRADES)
    questions = "metadata,problem,answer\n" + "".join(f'"{{}}",{q},{a}\n' for q, a, _ in SIMPLEQA_ROWS)
    predictions = "".join(json.dumps({"prediction": p}) + "\n" for _, _, p in SIMPLEQA_ROWS)
    _dataset(tmp_path, "simpleqa", {"questions.csv": questions, "predictions/m.jsonl": predictions,
                                    "grader.txt": SIMPLEQA_TEMPLATE},
             'task = "simpleqa"\n' + _judge(chat_server, "grader.txt"))
    assert run(tmp_path) == 0
    asked = [r["body"]["messages"][-1]["content"] for r in chat_server.requests]
    assert SIMPLEQA_TEMPLATE.strip().format(question="Capital of France?", target="Paris",
                                            predicted_answer="Paris") in asked  # the judge is asked concurrently
    assert not any("Madrid or Barcelona" in prompt for prompt in asked)  # no answer after an unclosed reasoning
    judged = read_artifact_json(tmp_path / "outputs" / "simpleqa" / "m" / "B5_judge.json")
    assert judged["unanswered"] == {"6": "the judge did not answer (HTTP 500 Internal Server Error)"}
    summary = judged["summary"]["simpleqa"]
    # five items count: A, B, C, the C read from "INCORRECT", and the unclosed reasoning (not attempted); the failed
    # call is not scored
    assert summary["figures"] == {"n": 5, "unanswered": 1, "defaulted": 0, "is_correct": 0.2, "is_incorrect": 0.2,
                                  "is_not_attempted": 0.6, "is_given_attempted": 0.4,
                                  "accuracy_given_attempted": 0.5, "f1": 2 * 0.5 * 0.2 / 0.7}
    report = read_artifact_json(tmp_path / "outputs" / "simpleqa" / "B6_report.json")["report"]
    assert report["judge"]["models"]["m"]["simpleqa"]["figures"]["f1"] == 2 * 0.5 * 0.2 / 0.7
    text = (tmp_path / "outputs" / "simpleqa" / "B6_report.txt").read_text(encoding="utf-8")
    assert ("SimpleQA n=5: correct 0.200, incorrect 0.200, not attempted 0.600 (1 unanswered, 0 with no letter), "
            "correct given attempted 0.500, F-score 0.286") in text
    # the dataset is read by the script's score (correct over the five items), not the criterion's mean over the four
    # graded ones (1 / 4)
    rows = json.loads((tmp_path / "outputs" / "B6_summary.json").read_text(encoding="utf-8"))["rows"]
    assert [(r["metric"], r["value"]) for r in rows if r["dataset"] == "simpleqa"] == [("simpleqa:is_correct", 0.2)]


HLE_TEMPLATE = ("Judge [response] to [question] against [correct_answer].\n[question]: {question}\n[response]: "
                "{response}\n[correct_answer]: {correct_answer}\nconfidence: 0|\\%| to 100|\\%|.")
HLE_ITEMS = [("h1", "What is 6 x 7?", "42", "", "Explanation: times table\nAnswer: 42\nConfidence: 90%"),
             ("h2", "Name the smallest prime.", "2", "", "Answer: 1\nConfidence: 60%"),
             ("h3", "What is shown?", "a cat", "data:image/png;base64,AAAA", "Answer: a cat\nConfidence: 50%"),
             ("h4", "Largest planet?", "Jupiter", "", "<think>Saturn? no, Jupiter is larger")]
HLE_JUDGE = {
    "[response]: Explanation: times table": json.dumps({"extracted_final_answer": "42", "reasoning": "matches",
                                                        "correct": "yes", "confidence": 90, "strict": True}),
    "[response]: Answer: 1": "extracted_final_answer: 1\nreasoning: 1 is not prime\ncorrect: no\nconfidence: 60",
}


def test_hle_text_only_is_judged_and_figured_as_its_script_does(tmp_path, chat_server):
    chat_server.replies.update(HLE_JUDGE)
    questions = "".join(json.dumps({"id": i, "question": q, "answer": a, "answer_type": "exactMatch", "image": im})
                        + "\n" for i, q, a, im, _ in HLE_ITEMS)
    predictions = "".join(json.dumps({"id": i, "response": r}) + "\n" for i, _, _, _, r in HLE_ITEMS)
    _dataset(tmp_path, "hle", {"questions.jsonl": questions, "predictions/m.jsonl": predictions,
                               "judge_prompt.txt": HLE_TEMPLATE}, 'task = "hle"\n' + _judge(chat_server, "judge_prompt.txt"))
    assert run(tmp_path) == 0
    b1 = read_artifact_json(tmp_path / "outputs" / "hle" / "B1_questions.json")
    assert [(r["line"], r["reason"]) for r in b1["rejects"]] == [(3,
        "HLE question with an image (text-only: the model would not see it)")]
    judged = read_artifact_json(tmp_path / "outputs" / "hle" / "m" / "B5_judge.json")
    figures = judged["summary"]["hle"]["figures"]
    # h1 correct, h2 wrong, h4 never closed its reasoning: in n, not correct, no confidence
    assert figures == {"n": 3, "unanswered": 1, "correct": 1, "accuracy": 33.33, "half_width": round(
        1.96 * (33.33 * 66.67 / 3) ** 0.5, 2), "calibration_error": None, "calibration_error_unrounded": None,
                       "calibrated_on": 2}
    details = {row["id"]: row["details"] for row in judged["rows"]}
    assert details["h2"] == {"extracted_final_answer": "1", "correct": "no", "confidence": 60}
    # read by HLE's accuracy over the three text-only items (33.33 %), not the criterion's mean over the two judged
    rows = json.loads((tmp_path / "outputs" / "B6_summary.json").read_text(encoding="utf-8"))["rows"]
    assert [(r["metric"], r["value"]) for r in rows if r["dataset"] == "hle"] == [("hle:accuracy", 33.33)]


def test_a_task_without_its_template_file_or_with_a_name_its_script_does_not_fill_is_one_problem_line(
        tmp_path, chat_server, capsys):
    questions = "metadata,problem,answer\n{},Capital of France?,Paris\n"
    files = {"questions.csv": questions, "predictions/m.jsonl": '{"prediction": "Paris"}\n',
             "grader.txt": "Question: {question}\nGold: {gold}\nAnswer: {predicted_answer}"}
    judge = _judge(chat_server, "grader.txt")
    _dataset(tmp_path, "missing_file", files, 'task = "simpleqa"\n' + judge.replace('grader.txt', 'none.txt'))
    _dataset(tmp_path, "no_file", files, 'task = "simpleqa"\n' + judge.replace('template_file = "grader.txt"\n', ''))
    _dataset(tmp_path, "bad_name", files, 'task = "simpleqa"\n' + judge)
    _dataset(tmp_path, "no_task", files, judge + 'criteria = ["correct"]\n')
    assert run(tmp_path) == 1
    problems = sorted(line for line in capsys.readouterr().err.splitlines() if line.startswith("PROBLEM"))
    assert len(problems) == 4 and not chat_server.requests
    assert "names {gold}; simple-evals simpleqa_eval.py (SimpleQAEval) fills {question}, {target}, " \
           "{predicted_answer}" in problems[0]
    assert "[judge] template_file 'none.txt' cannot be read" in problems[1]
    assert "[judge] needs" not in problems[2] and "asks the judge its script's template: set [judge] template_file" \
        in problems[2]
    assert "template_file is a judged task's grader template: it needs task" in problems[3]


def test_hostile_hle_judge_replies_and_image_shapes_are_unparsed_or_set_aside_and_the_run_finishes(
        tmp_path, chat_server):
    items = [("h1", "What is 6 x 7?", "42", "", "Answer: 42"), ("h2", "Smallest prime?", "2", "", "Answer: 2"),
             ("h3", "Largest planet?", "Jupiter", "", "Answer: Jupiter"),
             ("h4", "What is shown?", "a cat", {"bytes": "iVBORw0KGgo=", "path": None}, "Answer: a cat"),
             ("h5", "What are shown?", "dogs", ["data:image/png;base64,AAAA"], "Answer: dogs"),
             ("h6", "Capital of Peru?", "Lima", "", "Answer: Lima"), ("h7", "2 + 2?", "4", "", "Answer: 4")]
    chat_server.replies.update({
        "[response]: Answer: 42": "extracted_final_answer: 42\ncorrect: yes\nconfidence: \u00b2",
        "[response]: Answer: 2": json.dumps({"extracted_final_answer": "2", "correct": "yes"})[:-1]
                                 + ', "confidence": ' + "9" * 5000 + "}",
        "[response]: Answer: Jupiter": "extracted_final_answer: Jupiter\nreasoning: same\ncorrect: yes\n"
                                       "confidence: 150%",
        "[response]: Answer: Lima": "extracted_final_answer: Lima\ncorrect: yes\nconfidence: 80",
        "[response]: Answer: 4": "\n" * 100_000 + "extracted_final_answer: 4\ncorrect: no\nconfidence: 70"})
    questions = "".join(json.dumps({"id": i, "question": q, "answer": a, "answer_type": "exactMatch", "image": im})
                        + "\n" for i, q, a, im, _ in items)
    predictions = "".join(json.dumps({"id": i, "response": r}) + "\n" for i, _, _, _, r in items)
    _dataset(tmp_path, "hle", {"questions.jsonl": questions, "predictions/m.jsonl": predictions,
                               "judge_prompt.txt": HLE_TEMPLATE},
             'task = "hle"\n' + _judge(chat_server, "judge_prompt.txt"))
    assert run(tmp_path) == 0
    b1 = read_artifact_json(tmp_path / "outputs" / "hle" / "B1_questions.json")
    assert [r["line"] for r in b1["rejects"]] == [4, 5]  # both image shapes: the model would not see them
    judged = read_artifact_json(tmp_path / "outputs" / "hle" / "m" / "B5_judge.json")
    values = {row["id"]: (row["value"], len(row["unparsed"])) for row in judged["rows"]}
    assert values == {"h1": (None, 1), "h2": (None, 1), "h3": (1.0, 0), "h6": (1.0, 0), "h7": (0.0, 0)}
    assert judged["summary"]["hle"]["figures"]["calibrated_on"] == 3  # 150 read as the script's int reads it


def _hle_live(tmp_path, server, generate_extra: str = "") -> None:
    server.replies["[response]: m says"] = "extracted_final_answer: x\nreasoning: r\ncorrect: no\nconfidence: 50"
    questions = "".join(json.dumps({"id": i, "question": q, "answer": a, "answer_type": "exactMatch", "image": im})
                        + "\n" for i, q, a, im, _ in HLE_ITEMS)
    _dataset(tmp_path, "hle", {"questions.jsonl": questions, "judge_prompt.txt": HLE_TEMPLATE},
             'task = "hle"\n' + _judge(server, "judge_prompt.txt")
             + f'[generate]\nurl = "{server.url}"\nmodels = ["m"]\nretries = 0\n{generate_extra}')


def test_hle_asked_live_sends_its_scripts_system_prompt_before_each_question(tmp_path, chat_server):
    from pathlib import Path

    fixture = Path(__file__).parents[2] / "stages" / "kinds" / "instruction" / "hle" / "system_prompt.json"
    expected = json.loads(fixture.read_text())["SYSTEM_PROMPT"]
    _hle_live(tmp_path, chat_server)
    assert run(tmp_path) == 0
    asked = {r["body"]["messages"][-1]["content"]: r["body"]["messages"] for r in chat_server.requests
             if r["body"]["model"] == "m"}
    assert asked == {q: [{"role": "system", "content": expected}, {"role": "user", "content": q}]
                     for i, q, _, image, _ in HLE_ITEMS if not image}  # h3's image question is not asked


def test_hle_asked_live_with_a_generate_system_prompt_sends_that_one(tmp_path, chat_server):
    _hle_live(tmp_path, chat_server, 'system_prompt = "Answer tersely."\n')
    assert run(tmp_path) == 0
    assert {r["body"]["messages"][0]["content"] for r in chat_server.requests if r["body"]["model"] == "m"} == {
        "Answer tersely."}
