"""Writes the lm-eval IFEval sample files the import tests read, by running lm-eval's own ifeval and
leaderboard_ifeval tasks offline (not part of the suite).

    /tmp/hv/bin/pip install 'lm-eval[api]==0.4.13' torch==2.13.0 langdetect immutabledict nltk
    /tmp/hv/bin/python tests/pipeline/harness_files/make_ifeval.py

Both tasks are lm-eval's own YAMLs (`include:`), pointed at a local file holding IFEval's first 60 prompts but keys
1122 and 1129 (whose letter check is random in the official code). lm-eval asks a server on 127.0.0.1 that answers
each prompt with GPT-4's published response; `ifeval_repeats` (`repeats: 3`) gets the published response, then it
with every comma removed, then it in capitals. NLTK's Punkt English model cannot be downloaded here and no package
ships it: a sitecustomize puts NLTK's untrained Punkt in its place for lm-eval, as evalpipe uses it."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
from pathlib import Path

from make import LM_EVAL_OFFLINE, lm_eval_command, serve_replies

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[2].parent / "shared" / "data" / "real" / "ifeval"
OUT = HERE / "lm_eval_ifeval"
PROMPTS = 60
RANDOM_KEYS = (1122, 1129)

TASK = """include: {base}
task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    train: {data}
"""
OFFLINE_PUNKT = '''"""NLTK's untrained Punkt in place of its English model (not downloadable here), for lm-eval's ifeval."""
import nltk
import nltk.data
import nltk.tokenize
from nltk.tokenize.punkt import PunktSentenceTokenizer

_load, _find = nltk.data.load, nltk.data.find


def _punkt_load(resource, *args, **kwargs):
    return PunktSentenceTokenizer() if "punkt" in str(resource) else _load(resource, *args, **kwargs)


def _punkt_find(resource, *args, **kwargs):
    return resource if "punkt" in str(resource) else _find(resource, *args, **kwargs)


nltk.data.load, nltk.data.find, nltk.download = _punkt_load, _punkt_find, lambda *args, **kwargs: True
nltk.tokenize.sent_tokenize = lambda text, language="english": PunktSentenceTokenizer().tokenize(text)
'''


def main() -> None:
    questions = [json.loads(line) for line in (REAL / "input_data.jsonl").read_text(encoding="utf-8").splitlines()]
    questions = [q for q in questions if q["key"] not in RANDOM_KEYS][:PROMPTS]
    published = {row["prompt"]: row["response"] for row in map(json.loads, (
        REAL / "input_response_data_gpt4_20231107_145030.jsonl").read_text(encoding="utf-8").splitlines())}
    asked: dict[str, int] = {}
    lock = threading.Lock()

    def reply(prompt: str, model: str) -> str:
        with lock:
            time = asked[(model, prompt)] = asked.get((model, prompt), -1) + 1
        response = published[prompt]
        return [response, response.replace(",", ""), response.upper()][time % 3] if model == "gpt4_repeats" else response

    server = serve_replies(reply)
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"
    tasks = Path(__import__("lm_eval").__file__).parent / "tasks"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        data = work / "ifeval_subset.jsonl"
        data.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
        for name, base, extra in (("ifeval_local", tasks / "ifeval" / "ifeval.yaml", ""),
                                  ("leaderboard_ifeval_local", tasks / "leaderboard" / "ifeval" / "ifeval.yaml", ""),
                                  ("ifeval_repeats", tasks / "ifeval" / "ifeval.yaml", "repeats: 3\n")):
            (work / f"{name}.yaml").write_text(TASK.format(base=base, name=name, data=data) + extra)
        (work / "site").mkdir()
        (work / "site" / "sitecustomize.py").write_text(OFFLINE_PUNKT)
        env = {**LM_EVAL_OFFLINE, "PYTHONPATH": str(work / "site")}
        for model, names in (("gpt4", ["ifeval_local", "leaderboard_ifeval_local"]), ("gpt4_repeats", ["ifeval_repeats"])):
            subprocess.run([*lm_eval_command(work, OUT, names), "--model", "local-chat-completions",
                            "--apply_chat_template", "--model_args",
                            f"model={model},base_url={url},tokenizer_backend=None,num_concurrent=1"],
                           check=True, env={**env, **{k: v for k, v in os.environ.items() if k == "HOME"}})
    server.shutdown()


if __name__ == "__main__":
    main()
