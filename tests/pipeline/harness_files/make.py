"""Writes the harness files the import tests read, by running the harnesses themselves offline (not part of the suite).

    python -m venv /tmp/hv && /tmp/hv/bin/pip install inspect-ai 'lm-eval[api]' torch==2.13.0
    OPENCOMPASS_PYTHON=/tmp/ocv/bin/python /tmp/hv/bin/python tests/pipeline/harness_files/make.py [TOOL…]

lm-eval answers SQuAD questions through its local-chat-completions model, talking to a server on 127.0.0.1 that
replays a BERT model's published predictions (model "bert") or the same with "the " put before every other answer
("bert_the": SQuAD's official rule drops the article, lm-eval's exact_match does not); lm-eval's dummy model answers
CMMLU questions by loglikelihood. Inspect runs a solver that replays BERT's predictions under its mockllm model and
writes both log formats. OpenCompass (its own venv, OPENCOMPASS_PYTHON; `pip install opencompass 'pyarrow<17'`)
asks the same server CMMLU questions as a custom multiple-choice dataset; the server answers in several styles and
gets every fourth question wrong. `lm-eval-repeats` runs squad_local with `repeats: 4` against a server that varies
its reply from one repeat to the next (lm_eval_repeats/); `opencompass-samples` runs a CMMLU subset repeated n = 4
times and with num_return_sequences = 2 (opencompass_samples/)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[2].parent / "shared" / "data" / "real"
QUESTION_STEP = 350
LM_EVAL_OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}


SQUAD_TASK = """task: squad_local
dataset_path: json
dataset_kwargs:
  data_files:
    validation: {data}
validation_split: validation
output_type: generate_until
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_target: answers
generation_kwargs:
  until: ["\\n"]
  do_sample: false
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    ignore_punctuation: true
"""

CMMLU_TASK = """task: cmmlu_agronomy_local
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "{{{{Question.strip()}}}}\\nA. {{{{A}}}}\\nB. {{{{B}}}}\\nC. {{{{C}}}}\\nD. {{{{D}}}}\\n答案："
doc_to_choice: ["A", "B", "C", "D"]
doc_to_target: "{{{{['A', 'B', 'C', 'D'].index(Answer)}}}}"
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
"""


def squad_subset() -> list[dict]:
    """Every QUESTION_STEP-th SQuAD v1.1 dev question (id, question, answers) with BERT's prediction."""
    dev = json.loads((REAL / "squad" / "dev-v1.1.json").read_text(encoding="utf-8"))
    predictions = json.loads((REAL / "squad" / "bert-predictions.json").read_text(encoding="utf-8"))
    rows = [{"id": qa["id"], "question": qa["question"], "answers": [a["text"] for a in qa["answers"]]}
            for article in dev["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
    return [{**row, "bert": predictions[row["id"]]} for row in rows[::QUESTION_STEP]]


def reply_for(model: str, row: dict, index: int) -> str:
    return f"the {row['bert']}" if model == "bert_the" and index % 2 else row["bert"]


def cmmlu_subset(count: int) -> pd.DataFrame:
    return pd.read_csv(REAL / "cmmlu" / "test" / "agronomy.csv", index_col=0).head(count)


def cmmlu_reply(question: str, index: int) -> str:
    """A reply to a CMMLU question in one of four styles, wrong on every fourth question."""
    row = cmmlu_subset(40).iloc[index]
    letter = "ABCD"[("ABCD".index(row.Answer) + (index % 4 == 3)) % 4]
    return [f"答案是 {letter}", letter, f"{letter}. {row[letter]}", f"正确答案：{letter}"][index % 4]


def serve(rows: list[dict], instructions: dict[str, str] | None = None) -> ThreadingHTTPServer:
    """An OpenAI-compatible chat server on 127.0.0.1 answering SQuAD questions with a model's replayed reply, CMMLU
    questions (OpenCompass' prompt) with cmmlu_reply and the given instructions with their reply."""
    by_question = {row["question"]: (index, row) for index, row in enumerate(rows)}
    by_cmmlu = {question: index for index, question in enumerate(cmmlu_subset(40)["Question"])}

    def reply(prompt: str, model: str) -> str:
        if prompt in (instructions or {}):
            return instructions[prompt]
        question = prompt.split("Question: ", 1)[1].rsplit("\nAnswer:", 1)[0]
        if question in by_question:
            index, row = by_question[question]
            return reply_for(model, row, index)
        text = question.split("\nA. ", 1)[0]
        return cmmlu_reply(text, by_cmmlu[text])

    return serve_replies(reply)


def serve_replies(reply: Callable[[str, str], str]) -> ThreadingHTTPServer:
    """An OpenAI-compatible chat server on 127.0.0.1 whose reply to a request is reply(last message, model)."""
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            content = reply(body["messages"][-1]["content"], body["model"])
            answer = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"], "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_lm_eval(rows: list[dict], work: Path) -> None:
    data = work / "squad_subset.jsonl"
    data.write_text("".join(json.dumps({k: row[k] for k in ("id", "question", "answers")}) + "\n" for row in rows))
    (work / "squad_local.yaml").write_text(SQUAD_TASK.format(data=data))
    questions = cmmlu_subset(20)
    cmmlu = work / "cmmlu_subset.jsonl"
    cmmlu.write_text("".join(json.dumps({"id": int(i), **row}, ensure_ascii=False) + "\n"
                             for i, row in questions.iterrows()))
    (work / "cmmlu_local.yaml").write_text(CMMLU_TASK.format(data=cmmlu))
    server = serve(rows)
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
    out = HERE / "lm_eval"
    for model in ("bert", "bert_the"):
        ask_lm_eval(work, out, ["squad_local"], model, url)
    subprocess.run([*lm_eval_command(work, out, ["cmmlu_agronomy_local"]), "--model", "dummy"], check=True,
                   env=LM_EVAL_OFFLINE)
    server.shutdown()


def lm_eval_command(work: Path, out: Path, tasks: list[str]) -> list[str]:
    """lm-eval run on the task YAMLs in `work`, logging its samples under `out`."""
    return [sys.executable, "-m", "lm_eval", "--include_path", str(work), "--log_samples", "--output_path", str(out),
            "--tasks", ",".join(tasks)]


def ask_lm_eval(work: Path, out: Path, tasks: list[str], model: str, url: str) -> None:
    """lm-eval's local-chat-completions model `model` answering `tasks` through the chat server at `url`, offline."""
    subprocess.run([*lm_eval_command(work, out, tasks), "--model", "local-chat-completions", "--apply_chat_template",
                    "--model_args", f"model={model},base_url={url},tokenizer_backend=None,num_concurrent=1"],
                   check=True, env=LM_EVAL_OFFLINE)


INSPECT_TASK = '''
import json
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import exact, f1
from inspect_ai.solver import solver

ROWS = json.loads(open({rows!r}, encoding="utf-8").read())


@solver
def replay():
    """Answer each sample with BERT's published prediction instead of calling the model."""
    answers = {{row["id"]: row["bert"] for row in ROWS}}

    async def solve(state, generate):
        state.output = ModelOutput.from_content(model="mockllm/model", content=answers[state.sample_id])
        return state
    return solve


@task
def squad_replay():
    samples = [Sample(id=row["id"], input=row["question"], target=row["answers"]) for row in ROWS]
    return Task(dataset=MemoryDataset(samples), solver=replay(), scorer=[exact(), f1()])
'''


def run_inspect(rows: list[dict], work: Path) -> None:
    (work / "rows.json").write_text(json.dumps(rows))
    (work / "squad_replay.py").write_text(INSPECT_TASK.format(rows=str(work / "rows.json")))
    out = HERE / "inspect"
    for log_format in ("eval", "json"):
        subprocess.run([str(Path(sys.executable).with_name("inspect")), "eval", "squad_replay.py",
                        "--model", "mockllm/model", "--log-dir", str(out), "--log-format", log_format,
                        "--no-log-images"], check=True, cwd=work)


OPENCOMPASS_MODEL = '''from opencompass.models import OpenAISDK


class OfflineOpenAISDK(OpenAISDK):
    """OpenAISDK without tiktoken, whose encoding file is downloaded at run time."""

    def _init_tokenizer(self) -> None:
        self.tokenizer = None

    def get_token_len(self, prompt: str) -> int:
        return len(prompt)
'''
OPENCOMPASS_CONFIG = '''from offline_model import OfflineOpenAISDK
models = [dict(type=OfflineOpenAISDK, abbr="replay", path="replay", key="EMPTY", openai_api_base="{base}",
               query_per_second=10, max_out_len=64, max_seq_len=2048, batch_size=1, retry=1)]
datasets = [dict(path="{data}", data_type="mcq", infer_method="gen")]
'''


def run_opencompass(rows: list[dict], work: Path) -> None:
    data = work / "cmmlu_agronomy.jsonl"
    data.write_text("".join(json.dumps({"question": row.Question, "A": row.A, "B": row.B, "C": row.C, "D": row.D,
                                        "answer": row.Answer}, ensure_ascii=False) + "\n"
                            for _, row in cmmlu_subset(40).iterrows()), encoding="utf-8")
    server = serve(rows)
    (work / "offline_model.py").write_text(OPENCOMPASS_MODEL)
    (work / "config.py").write_text(OPENCOMPASS_CONFIG.format(
        base=f"http://127.0.0.1:{server.server_address[1]}/v1", data=data))
    subprocess.run([os.environ["OPENCOMPASS_PYTHON"], "-m", "opencompass.cli.main", "config.py", "-w",
                    str(HERE / "opencompass"), "--debug"], check=True, cwd=work,
                   env={"PYTHONPATH": str(work), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                        "PATH": "/usr/bin:/bin"})
    server.shutdown()


OPENCOMPASS_SAMPLES_MODEL = OPENCOMPASS_MODEL + '''

class TwoRepliesSDK(OfflineOpenAISDK):
    """Asks the server twice for every prompt: OpenCompass' `num_return_sequences` = 2 (two outputs per input)."""

    def __init__(self, *args, **kwargs):
        OpenAISDK.__init__(self, *args, **kwargs)  # the config loader imports this file twice: no bare super()
        self.generation_kwargs = dict(num_return_sequences=2)

    def generate(self, inputs, max_out_len=512, **kwargs):
        return [reply for one in inputs for reply in OpenAISDK.generate(self, [one, one], max_out_len, **kwargs)]
'''
OPENCOMPASS_SAMPLES_CONFIG = '''from offline_model import OfflineOpenAISDK, TwoRepliesSDK
common = dict(key="EMPTY", openai_api_base="{base}", query_per_second=10, max_out_len=64, max_seq_len=2048,
              batch_size=1, retry=1)
models = [dict(type=OfflineOpenAISDK, abbr="repeat4", path="repeat4", **common),
          dict(type=TwoRepliesSDK, abbr="two_each", path="two_each", **common)]
datasets = [dict({dataset}, n=4, k=[1, 2, 4])]
'''
CUSTOM_DATASET = ("import json, sys; from opencompass.datasets.custom import make_custom_dataset_config; "
                  "print(json.dumps(make_custom_dataset_config(dict(path=sys.argv[1], data_type='mcq', "
                  "infer_method='gen'))))")


def run_opencompass_samples(rows: list[dict], work: Path) -> None:
    """The CMMLU subset as a dataset repeated n = 4 times, asked of one model, and asked twice per prompt of another
    (num_return_sequences = 2); the server's reply to a question turns from right to wrong on every third asking of
    it, and varies its style (opencompass_samples/)."""
    subset = cmmlu_subset(12)
    data = work / "cmmlu_agronomy.jsonl"
    data.write_text("".join(json.dumps({"question": row.Question, "A": row.A, "B": row.B, "C": row.C, "D": row.D,
                                        "answer": row.Answer}, ensure_ascii=False) + "\n"
                            for _, row in subset.iterrows()), encoding="utf-8")
    by_question = {question: index for index, question in enumerate(subset["Question"])}
    asked: dict[tuple[str, str], int] = {}
    lock = threading.Lock()

    def reply(prompt: str, model: str) -> str:
        text = prompt.split("Question: ", 1)[1].split("\nA. ", 1)[0]
        index = by_question[text]
        with lock:
            time = asked[(model, text)] = asked.get((model, text), -1) + 1
        right = subset.iloc[index].Answer
        letter = right if (time + index) % 3 else "ABCD"[("ABCD".index(right) + 1) % 4]
        return [f"答案是 {letter}", letter, f"正确答案：{letter}"][(time + index) % 3]

    server = serve_replies(reply)
    (work / "offline_model.py").write_text(OPENCOMPASS_SAMPLES_MODEL)
    dataset = subprocess.run([os.environ["OPENCOMPASS_PYTHON"], "-c", CUSTOM_DATASET, str(data)], check=True,
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
    (work / "config.py").write_text(OPENCOMPASS_SAMPLES_CONFIG.format(
        base=f"http://127.0.0.1:{server.server_address[1]}/v1", dataset=dataset))
    subprocess.run([os.environ["OPENCOMPASS_PYTHON"], "-m", "opencompass.cli.main", "config.py", "-w",
                    str(HERE / "opencompass_samples"), "--debug"], cwd=work,
                   env={"PYTHONPATH": str(work), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                        "PATH": "/usr/bin:/bin"})  # its evaluator fails on two_each's lists of replies: no results
    server.shutdown()
    written = {path.parent.name for path in (HERE / "opencompass_samples").glob("*/predictions/*/*.json")}
    assert written == {"repeat4", "two_each"}, written


def run_lm_eval_repeats(rows: list[dict], work: Path) -> None:
    """squad_local with `repeats: 4`: the server gives BERT's answer, the same with "the " before it, another
    question's answer, then BERT's again, in turn for each question (lm_eval_repeats/)."""
    data = work / "squad_subset.jsonl"
    data.write_text("".join(json.dumps({k: row[k] for k in ("id", "question", "answers")}) + "\n" for row in rows))
    (work / "squad_local.yaml").write_text(SQUAD_TASK.format(data=data) + "repeats: 4\n")
    by_question = {row["question"]: index for index, row in enumerate(rows)}
    asked: dict[str, int] = {}
    lock = threading.Lock()

    def reply(prompt: str, model: str) -> str:
        question = prompt.split("Question: ", 1)[1].rsplit("\nAnswer:", 1)[0]
        index = by_question[question]
        with lock:
            repeat = asked[question] = asked.get(question, -1) + 1
        answer = rows[index]["bert"]
        return [answer, f"the {answer}", rows[(index + 1) % len(rows)]["bert"], answer][repeat % 4]

    server = serve_replies(reply)
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
    ask_lm_eval(work, HERE / "lm_eval_repeats", ["squad_local"], "bert_repeats", url)
    server.shutdown()


def main() -> None:
    rows = squad_subset()
    with tempfile.TemporaryDirectory() as work:
        for tool, run in (("lm-eval", run_lm_eval), ("inspect", run_inspect), ("opencompass", run_opencompass),
                          ("lm-eval-repeats", run_lm_eval_repeats), ("opencompass-samples", run_opencompass_samples)):
            if len(sys.argv) == 1 or tool in sys.argv[1:]:
                run(rows, Path(work))


if __name__ == "__main__":
    main()
