"""report.html's item explorer shows what the model did, drawn by its kind's renderer: a math answer and its gold
drawn by the embedded KaTeX, reasoning folded behind the answer with its length and an unfinished flag; offline."""
import html
import json
import re
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.pipeline.browser import probe_page

pytest.importorskip("math_verify")

CONFORMANCE = Path(__file__).parents[2] / "stages" / "kinds"

QUESTIONS = [{"id": "p1", "problem": "Half of one?", "answer": "\\frac{1}{2}"},
             {"id": "p2", "problem": "2 + 2?", "answer": "4"},
             {"id": "p3", "problem": "3 + 4?", "answer": "7"}]
REPLIES = [{"id": "p1", "prediction": "<think>one over two</think> So \\boxed{\\frac{1}{2}}"},
           {"id": "p2", "prediction": "<think>two and two make"},
           {"id": "p3", "prediction": "\\boxed{8}"}]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("views")
    folder = root / "inputs" / "m"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "math"\n')
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    (folder / "predictions" / "model.jsonl").write_text("".join(json.dumps(r) + "\n" for r in REPLIES))
    assert main(["run", "--inputs", str(root / "inputs"), "--outputs", str(root / "outputs")]) == 0
    return root / "outputs" / "report.html"


def test_the_page_embeds_katex_with_its_licence_and_fetches_nothing(report):
    text = report.read_text(encoding="utf-8")
    markup = re.sub(r"<script>.*?</script>", "<script></script>", text, flags=re.DOTALL)
    assert not re.search(r"""\b(src|href)\s*=|@import|<link\b""", markup, re.IGNORECASE)
    assert re.findall(r"url\((?!data:font/woff2;base64,)", text) == []
    assert text.count("data:font/woff2;base64,") == 20 and text.count("<script>") == 2
    assert "/* KaTeX 0.16.22, embedded under its licence:\nThe MIT License (MIT)\n\nCopyright (c) 2013-2020 Khan " \
           "Academy and other contributors" in text


def test_katex_draws_the_answer_and_the_gold_and_reasoning_opens_on_click(report, tmp_path):
    probe = """<script>
const box = document.querySelector("details.explorer");
box.querySelector("summary").click();  // the reader opens the explorer: its rows are drawn then
const rows = box.querySelectorAll("tbody tr");
const p1 = Array.from(rows).find(r => r.cells[0].textContent === "p1");
const p2 = Array.from(rows).find(r => r.cells[0].textContent === "p2");
document.body.dataset.katex = String(p1.querySelectorAll(".tex .katex").length);
document.body.dataset.fraction = String(p1.querySelectorAll(".tex .katex .mfrac").length);
const fold = p1.querySelector("details.reasoning");
document.body.dataset.before = String(fold.open);
fold.querySelector("summary").click();
document.body.dataset.after = String(fold.open);
document.body.dataset.fold = fold.querySelector("summary").textContent;
document.body.dataset.unfinished = p2.querySelector("details.reasoning summary").textContent;
document.body.dataset.answer = p2.cells[3].querySelector(".reply").textContent;
</script></body>"""
    body, console = probe_page(report, probe, tmp_path)
    assert console == []
    assert body["katex"] == "2" and body["fraction"] == "2"  # the answer read, 1/2, and the gold \frac{1}{2}
    assert (body["before"], body["after"]) == ("false", "true")
    assert body["fold"] == f"reasoning ({len('<think>one over two</think> '):,} characters)"
    assert body["unfinished"] == f"reasoning ({len('<think>two and two make')} characters, unfinished)"
    assert body["answer"] == "(no answer: the reply ends inside its reasoning)"


def test_ifeval_items_list_each_instructions_strict_and_loose_verdict(tmp_path):
    folder = tmp_path / "inputs" / "ife"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "ifeval"\n')
    (folder / "questions.jsonl").write_text(json.dumps(
        {"key": 1, "prompt": "Say hello in lowercase without commas.",
         "instruction_id_list": ["punctuation:no_comma", "change_case:english_lowercase"], "kwargs": [{}, {}]}) + "\n")
    (folder / "predictions" / "m.jsonl").write_text(json.dumps({"key": 1, "response": "hello, there"}) + "\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
document.querySelector("details.explorer summary").click();
document.body.dataset.verdicts = Array.from(document.querySelectorAll("details.explorer ul.instructions li"))
  .map(li => li.className + "=" + li.textContent).join("|");
</script></body>"""
    page = tmp_path / "outputs" / "report.html"
    body, console = probe_page(page, probe, tmp_path)
    assert console == [] and "katex" not in page.read_text(encoding="utf-8").split("<script>")[0]
    assert body["verdicts"] == ("not-followed=punctuation:no_comma: strict ✗, loose ✗ — comma at 5|"
                                "followed=change_case:english_lowercase: strict ✓, loose ✓")


def test_function_calling_items_show_the_calls_beside_the_possible_answers(tmp_path):
    shutil.copytree(CONFORMANCE / "function_calling" / "conformance", tmp_path / "inputs" / "fc")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
const box = document.querySelector("details.explorer"), a = box.querySelector(".model-a");
a.value = "function-calling"; a.dispatchEvent(new Event("change"));
const row = Array.from(box.querySelectorAll("tbody tr")).find(r => r.cells[0].textContent === "simple_python_0");
document.body.dataset.calls = Array.from(row.querySelectorAll(".calls > div")).map(d => d.textContent).join("|");
document.body.dataset.verdict = row.querySelector(".verdict").textContent;
</script></body>"""
    body, console = probe_page(tmp_path / "outputs" / "report.html", probe, tmp_path)
    assert console == []
    assert html.unescape(body["calls"]) == ('calls: weather_current(city="Lyon")|possible answers: '
                                            'weather.current(city="Paris" | "Paris, France", unit="celsius" optional)')
    assert html.unescape(body["verdict"]) == ("simple_python: value_error:string: 'city' = 'Lyon', expected one of "
                                              "['Paris', 'Paris, France']")


def test_loglikelihood_items_show_each_choice_and_what_each_figure_picked(tmp_path):
    shutil.copytree(CONFORMANCE / "loglikelihood" / "conformance", tmp_path / "inputs" / "ll")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
document.querySelector("details.explorer summary").click();
const row = Array.from(document.querySelectorAll("details.explorer tbody tr")).find(r => r.cells[0].textContent === "1");
document.body.dataset.choices = Array.from(row.querySelectorAll("table.choices tbody tr"))
  .map(r => Array.from(r.cells).map(c => c.textContent).join(";")).join("|");
</script></body>"""
    body, console = probe_page(tmp_path / "outputs" / "report.html", probe, tmp_path)
    assert console == []
    # item 1: "four" −3 (−0.75 per character, the gold), "x" −2 (−2 per character): acc picks x, acc_norm four
    assert body["choices"] == "four (gold);-3.000;-0.7500;acc_norm|x;-2.000;-2.0000;acc"


def _call(number: int, name: str, arguments: dict) -> dict:
    return {"id": f"call_{number}", "name": name, "arguments": arguments, "requestor": "assistant"}


def _result(number: int, content: str, error: bool = False) -> dict:
    return {"role": "tool", "id": f"call_{number}", "content": content, "requestor": "assistant", "error": error}


AGENT_TRIAL = {"trial": 0, "termination_reason": "agent_stop", "messages": [
    {"role": "assistant", "content": "Hi! How can I help you?"},
    {"role": "user", "content": "Please help with my tasks."},
    {"role": "assistant", "content": "Let me look.",
     "tool_calls": [_call(0, "get_users", {}), _call(1, "update_task_status", {"task_id": "task_9", "status": "x"})]},
    _result(0, '[{"user_id": "user_1"}]'), _result(1, "Error: Task task_9 not found", error=True),
    {"role": "assistant", "content": None, "tool_calls": [_call(0, "create_task", {"user_id": "user_1",
                                                                                      "title": "Buy bread"})]},
    _result(0, '{"task_id": "task_2", "title": "Buy bread"}'),
    {"role": "assistant", "content": "Done."}]}


def test_tau2_items_show_each_trial_with_every_tool_call_its_reward_and_the_database_difference(tmp_path):
    shutil.copytree(CONFORMANCE / "tau2" / "conformance", tmp_path / "inputs" / "t2")
    predictions = tmp_path / "inputs" / "t2" / "predictions"
    others = [line for line in (predictions / "good.jsonl").read_text().splitlines() if '"id": "create"' not in line]
    (predictions / "agent.jsonl").write_text("\n".join([json.dumps({"id": "create", "trials": [AGENT_TRIAL]}),
                                                        *others]) + "\n")
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
const box = document.querySelector("details.explorer"), a = box.querySelector(".model-a"), shown = {};
for (const model of ["agent", "bad", "good"]) {
  a.value = model; a.dispatchEvent(new Event("change"));
  box.querySelectorAll("tbody tr").forEach(function (row) {
    row.querySelectorAll("details.episode").forEach(function (trial, number) {
      shown[model + "/" + row.cells[0].textContent + "/" + number] = Array.from(trial.querySelectorAll(".call"))
        .map(c => c.firstChild.textContent);
    });
  });
}
a.value = "agent"; a.dispatchEvent(new Event("change"));
const trial = box.querySelector("tbody tr details.episode");
document.body.dataset.shown = JSON.stringify(shown);
document.body.dataset.summary = trial.querySelector("summary").textContent;
document.body.dataset.components = Array.from(trial.querySelectorAll(".components li"))
  .map(li => li.className + "=" + li.textContent).join("|");
document.body.dataset.difference = trial.querySelector(".db-difference").textContent;
document.body.dataset.results = Array.from(trial.querySelectorAll(".call .result"))
  .map(r => r.className + "=" + r.textContent).join("|");
document.body.dataset.roles = Array.from(trial.querySelectorAll(".transcript > li")).map(li => li.className).join("|");
document.body.dataset.reply = box.querySelector("tbody tr").cells[3].querySelector(".reply").textContent;
</script></body>"""
    body, console = probe_page(tmp_path / "outputs" / "report.html", probe, tmp_path)
    assert console == []
    expected = {}  # every tool call of every trial, counted from the trials' messages
    for path in sorted(predictions.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            task = json.loads(line)
            for number, t in enumerate(task["trials"]):
                expected[f"{path.stem}/{task['id']}/{number}"] = [f"→ {c['name']}({json.dumps(c['arguments'])})"
                                                                  for m in t["messages"]
                                                                  for c in m.get("tool_calls") or []]
    shown = json.loads(html.unescape(body["shown"]))
    assert shown == expected and len(shown) == 17 and len(shown["agent/create/0"]) == 3
    assert html.unescape(body["summary"]) == "trial 0: reward 0 · agent_stop · 5 turns, 3 tool calls"
    assert html.unescape(body["components"]) == ("failed=DB 0 — the database differs from the gold actions' at "
                                                 "tasks/task_2")
    assert html.unescape(body["difference"]) == "database differs at: tasks/task_2"
    assert html.unescape(body["results"]) == ('result=← [{"user_id": "user_1"}]|'
                                              'result error=← Error: Task task_9 not found|'
                                              'result=← {"task_id": "task_2", "title": "Buy bread"}')
    assert body["roles"] == "turn assistant|turn user|turn assistant|turn assistant|turn assistant"
    assert html.unescape(body["reply"]) == "trial 0: agent_stop, reward 0, 5 turns"


MULTI_TURN = {"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "Add 1 and 2."}],
                                                      [{"role": "user", "content": "Now the mean of 1, 2 and 6."}],
                                                      [{"role": "user", "content": "The square root of 16?"}]],
              "initial_config": {}, "involved_classes": ["MathAPI"],
              "ground_truth": [["add(a=1, b=2)"], ["mean(numbers=[1, 2, 6])"], ["square_root(number=16, precision=2)"]]}
EPISODE_CALLS = {  # each model's calls per turn, as its steps give them (a text step, "It is 3.", holds none)
    "good": ([["[add(a=1, b=2)]", "It is 3."], ["[mean(numbers=[1, 2, 6])]", "[divide(a=1, b=0)]"],
              ["[square_root(number=16, precision=2)]"]],
             [["add(a=1, b=2)"], ["mean(numbers=[1, 2, 6])", "divide(a=1, b=0)"],
              ["square_root(number=16, precision=2)"]]),
    "bad": ([["[add(a=1, b=3)]"], ["[mean(numbers=[1, 2, 6])]"], ["[square_root(number=16, precision=2)]"]],
            [["add(a=1, b=3)"], ["mean(numbers=[1, 2, 6])"], ["square_root(number=16, precision=2)"]])}


def test_bfcl_multi_turn_items_show_every_call_of_every_turn_with_its_result_and_the_turns_verdict(tmp_path):
    pytest.importorskip("bfcl_eval.eval_checker.multi_turn_eval.func_source_code.math_api")
    folder = tmp_path / "inputs" / "mt"
    (folder / "predictions").mkdir(parents=True)
    (folder / "dataset.toml").write_text('kind = "function_calling"\n')
    (folder / "questions.jsonl").write_text(json.dumps(MULTI_TURN) + "\n")
    for model, (result, _) in EPISODE_CALLS.items():
        (folder / "predictions" / f"{model}.jsonl").write_text(json.dumps({"id": MULTI_TURN["id"], "result": result}))
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0
    probe = """<script>
const box = document.querySelector("details.explorer"), a = box.querySelector(".model-a"), shown = {};
for (const model of ["good", "bad"]) {
  a.value = model; a.dispatchEvent(new Event("change"));
  shown[model] = Array.from(box.querySelectorAll("tbody tr ol.turns > li")).map(li => ({
    user: Array.from(li.querySelectorAll(".user")).map(u => u.textContent),
    calls: Array.from(li.querySelectorAll(".call")).map(c => c.firstChild.textContent),
    said: Array.from(li.querySelectorAll(".assistant")).map(u => u.textContent),
    results: Array.from(li.querySelectorAll(".call .result")).map(r => r.textContent),
    verdict: li.querySelector(".verdict").textContent}));
  shown[model + " reads"] = box.querySelector("tbody tr").cells[4].firstChild.textContent;
  shown[model + " reply"] = box.querySelector("tbody tr").cells[3].querySelector(".reply").textContent;
}
shown.gold = box.querySelector("tbody tr").cells[2].textContent;
document.body.dataset.shown = JSON.stringify(shown);
</script></body>"""
    body, console = probe_page(tmp_path / "outputs" / "report.html", probe, tmp_path)
    assert console == []
    shown = json.loads(html.unescape(body["shown"]))
    users = [[f"user: {m['content']}" for m in turn] for turn in MULTI_TURN["question"]]
    for model, (_, calls) in EPISODE_CALLS.items():
        assert [turn["user"] for turn in shown[model]] == users
        assert [turn["calls"] for turn in shown[model]] == [[f"→ {call}" for call in turn] for turn in calls]
    assert [turn["results"] for turn in shown["good"]] == [
        ['← {"result": 3}'], ['← {"result": 3.0}', '← {"error": "Cannot divide by zero"}'],
        ["← {'result': Decimal('4')}"]]
    assert [turn["verdict"] for turn in shown["good"]] == ["turn verdict: right"] * 3
    assert [turn["said"] for turn in shown["good"]] == [["assistant: It is 3."], [], []]
    for model, (_, calls) in EPISODE_CALLS.items():  # the cell: each turn's calls, not the reply's list of lists
        assert shown[f"{model} reply"] == "; ".join(f"turn {n}: {', '.join(turn)}" for n, turn in enumerate(calls, 1))
    assert shown["good reads"] == "valid"  # not "valid: None": a multi-turn episode has no calls decoded as one
    assert shown["gold"] == ("turn 1: add(a=1, b=2); turn 2: mean(numbers=[1, 2, 6]); "  # the ground truth per turn
                             "turn 3: square_root(number=16, precision=2)")
    assert [turn["results"] for turn in shown["bad"]] == [['← {"result": 4}'], ["← (not run)"], ["← (not run)"]]
    assert [turn["verdict"] for turn in shown["bad"]] == [
        "turn verdict: multi_turn:execution_response_mismatch: turn 0: 1 expected result(s) not among the model's",
        *["turn verdict: not checked (an earlier turn failed)"] * 2]
