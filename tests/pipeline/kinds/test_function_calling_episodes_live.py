"""BFCL's multi-turn items asked live of a scripted server on 127.0.0.1 as agent loops: each tool call run on the
item's GorillaFileSystem (bfcl-eval's mock API) and its result sent back as a `tool` message with its tool_call_id,
a missed function offered from its turn on, the step limit per turn, a rerun asking nothing and a killed run resuming
inside its episode. Needs bfcl-eval installed (`pip install --no-deps bfcl-eval==2026.3.23 mpmath`)."""
import json
import os
import signal
import subprocess
import sys

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from stages.kinds.function_calling.agent import STEP_LIMIT
from stages.kinds.function_calling.prompting import ADDED_FUNCTIONS
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, run, write_jsonl

pytest.importorskip("bfcl_eval.eval_checker.multi_turn_eval.func_source_code.gorilla_file_system")

FILES = {"GorillaFileSystem": {"root": {"workspace": {"type": "directory", "contents": {
    "notes.txt": {"type": "file", "content": "hello"}}}}}}
DOCS = [{"name": name, "description": f"{name} in the current directory.", "parameters": {
    "type": "dict", "properties": properties, "required": list(properties)}}
    for name, properties in (("ls", {}), ("mkdir", {"dir_name": {"type": "string", "description": "Name."}}),
                             ("cat", {"file_name": {"type": "string", "description": "Name."}}),
                             ("touch", {"file_name": {"type": "string", "description": "Name."}}))]
MKDIR, CAT, KEEP_LISTING = "Make a folder reports, then list the files.", "Show me notes.txt.", "Keep listing."
CALLS = {MKDIR: [("mkdir", {"dir_name": "reports"}), ("ls", {})], CAT: [("cat", {"file_name": "notes.txt"}), ("ls", {})],
         ADDED_FUNCTIONS: [("touch", {"file_name": "a.txt"})], KEEP_LISTING: [("ls", {})]}
RESULTS = {MKDIR: ["None", '{"current_directory_content": ["notes.txt", "reports"]}'],  # the mock API's own
           CAT: ['{"file_content": "hello"}', '{"current_directory_content": ["notes.txt", "reports"]}'],
           ADDED_FUNCTIONS: ["None"]}
LISTED = ['{"current_directory_content": ["notes.txt"]}']


def _item(item_id, turns, answer, **extra):
    return {"id": item_id, "question": [[{"role": "user", "content": text}] if text else [] for text in turns],
            "initial_config": FILES, "involved_classes": ["GorillaFileSystem"], "ground_truth": answer, **extra}


MISSED = _item("multi_turn_miss_func_0", [MKDIR, CAT, None],
               [["mkdir(dir_name='reports')", "ls()"], ["cat(file_name='notes.txt')", "ls()"],
                ["touch(file_name='a.txt')"]],
               missed_function={"2": ["touch"]})
ENDLESS = _item("multi_turn_base_0", [KEEP_LISTING, CAT], [["ls()"], ["cat(file_name='notes.txt')", "ls()"]])


class Agent:
    """Answers a user turn with its CALLS (ids unique per request), and the tool messages after them in words,
    noting what each request offered and got back."""

    def __init__(self, kill=None):
        self.seen, self.kill, self.count = [], kill, 0

    def __call__(self, messages, tools):
        self.count += 1
        if self.kill is not None and self.count == self.kill[1]:
            os.kill(self.kill[0].pid, signal.SIGKILL)
        names = sorted(tool["function"]["name"] for tool in tools or [])
        last = messages[-1]
        if last["role"] == "tool":
            sent = [m for m in messages if m["role"] == "assistant"][-1]["tool_calls"]
            back = messages[len(messages) - len(sent):]
            self.seen.append(("results", [m["tool_call_id"] for m in back], [c["id"] for c in sent],
                              [m["content"] for m in back]))
            return None if KEEP_LISTING not in json.dumps(messages) else self._calls(KEEP_LISTING, len(messages))
        self.seen.append(("turn", last["content"], names))
        return self._calls(last["content"], len(messages))

    def _calls(self, text, at):
        return [{"id": f"call_{at}_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(CALLS[text])]


def _dataset(root, server, items, extra=""):
    folder = root / "inputs" / "episodes"
    write_jsonl(folder / "questions.jsonl", items)
    write_jsonl(root / "bfcl" / "multi_turn_func_doc" / "gorilla_file_system.json", DOCS)
    (folder / "dataset.toml").write_text(
        f'kind = "function_calling"\n[params]\nbfcl_data = "../../bfcl"\n[generate]\nprotocol = "openai"\n'
        f'url = "{server.url}"\nmodels = ["m"]\ntimeout = 5\nretries = 0\n{extra}')
    return folder


def _b4(root):
    b4 = read_columns(root / "outputs" / "episodes" / "m" / "B4_matches.json")
    return dict(zip(b4["id"], zip(b4["valid"], b4["error_type"])))


def test_each_tool_call_runs_on_the_mock_api_and_its_result_goes_back(tmp_path):
    with ChatServer() as server:
        server.agent = agent = Agent()
        _dataset(tmp_path, server, [MISSED, ENDLESS])
        assert run(tmp_path) == 0
        asked = len(server.chats())
        assert run(tmp_path) == 0 and len(server.chats()) == asked  # every request journaled: a rerun asks nothing
    turns = [entry for entry in agent.seen if entry[0] == "turn"]
    assert ("turn", MKDIR, ["cat", "ls", "mkdir"]) in turns  # touch is withheld until its turn...
    assert ("turn", ADDED_FUNCTIONS, ["cat", "ls", "mkdir", "touch"]) in turns  # ...then offered
    results = [entry for entry in agent.seen if entry[0] == "results"]
    assert all(entry[1] == entry[2] for entry in results)  # each call's tool_call_id answered, in order
    # the mock API's results, state kept across turns (reports made in turn 0 listed in turn 1); then the 20 results
    # sent back to the endless lister (its 21st step's calls run, and the episode stops)
    assert [entry[3] for entry in results] == [RESULTS[MKDIR], RESULTS[CAT], RESULTS[ADDED_FUNCTIONS]] + [
        LISTED] * STEP_LIMIT
    assert asked == 6 + STEP_LIMIT + 1  # 3 turns of calls and a reply in words; 21 steps of calls, then stopped
    assert _b4(tmp_path) == {"multi_turn_miss_func_0": (True, None),
                             "multi_turn_base_0": (False, "multi_turn:force_terminated")}
    b2 = read_columns(tmp_path / "outputs" / "episodes" / "m" / "B2_predictions.json")
    result = json.loads(dict(zip(b2["id"], b2["prediction"]))["multi_turn_miss_func_0"])
    assert [[step if isinstance(step, list) else "words" for step in turn] for turn in result] == [
        [[{"mkdir": '{"dir_name": "reports"}'}, {"ls": "{}"}], "words"],
        [[{"cat": '{"file_name": "notes.txt"}'}, {"ls": "{}"}], "words"], [[{"touch": '{"file_name": "a.txt"}'}], "words"]]
    endless = json.loads(dict(zip(b2["id"], b2["prediction"]))["multi_turn_base_0"])
    assert len(endless) == 1 and len(endless[0]) == STEP_LIMIT + 1


def test_a_killed_run_resumes_inside_its_episode(tmp_path):
    with ChatServer() as server:
        _dataset(tmp_path, server, [MISSED])
        command = [sys.executable, "-m", "pipeline", "run", "--inputs", str(tmp_path / "inputs"), "--outputs",
                   str(tmp_path / "outputs")]
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server.agent = agent = Agent(kill=(process, 4))  # killed while turn 1's results wait for the model's reply
        process.wait(timeout=120)
        assert process.returncode == -signal.SIGKILL and len(server.chats()) == 4
        server.agent = resumed = Agent()
        assert run(tmp_path) == 0
        assert len(server.chats()) == 4 + 3  # the request in flight and the two after it; the first three replayed
    assert [entry[1] for entry in agent.seen if entry[0] == "turn"] == [MKDIR, CAT]
    assert [entry[1] for entry in resumed.seen if entry[0] == "turn"] == [ADDED_FUNCTIONS]
    # the journaled calls ran again on fresh instances: turn 1's ls lists the folder turn 0 made before the kill
    assert [entry[3] for entry in resumed.seen if entry[0] == "results"] == [RESULTS[CAT], RESULTS[ADDED_FUNCTIONS]]
    assert _b4(tmp_path) == {"multi_turn_miss_func_0": (True, None)}
    journal = [json.loads(line) for line in (tmp_path / "outputs" / "episodes" / "m" / "B2_generated.jsonl")
               .read_text().splitlines()]
    assert [(r["id"].split("#", 1)[1], r.get("tool_results")) for r in journal] == [
        ("turn0#step0", RESULTS[MKDIR]), ("turn0#step1", []), ("turn1#step0", RESULTS[CAT]), ("turn1#step1", []),
        ("turn2#step0", RESULTS[ADDED_FUNCTIONS]), ("turn2#step1", [])]
    header = read_artifact_json(tmp_path / "outputs" / "episodes" / "m" / "B2_predictions.json")["header"]
    assert header["generation"]["answers"] == 6


def _as_text(calls):
    return "[" + ", ".join(f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})" for name, args in calls) + "]"


def test_prompt_mode_sends_bfcls_system_prompt_no_tools_and_the_results_in_words(tmp_path):
    seen = []

    def answer(message):
        seen.append(message)
        if message.startswith("[{'role': 'tool'"):
            return "Done."  # no call decodes: the turn ends
        return next(_as_text(calls) for text, calls in CALLS.items() if text in message)

    with ChatServer() as server:
        server.answer = answer
        _dataset(tmp_path, server, [MISSED], 'mode = "prompt"\n')
        assert run(tmp_path) == 0
        chats = server.chats()
    assert len(chats) == 6 and not any("tools" in chat["body"] for chat in chats)
    system, user = chats[0]["body"]["messages"]
    assert (system["role"], user) == ("system", {"role": "user", "content": MKDIR})
    assert system["content"].startswith("You are an expert in composing functions.You are given a question")
    docs = json.loads(system["content"].split("Here is a list of functions in json format that you can invoke.\n")[1])
    assert [(doc["name"], doc["description"]) for doc in docs] == [
        (name, f"{name} in the current directory. Note that the provided function is in Python 3 syntax.")
        for name in ("ls", "mkdir", "cat")]  # touch withheld until its turn
    assert seen[1] == repr([{"role": "tool", "name": "mkdir(dir_name='reports')", "content": "None"},
                            {"role": "tool", "name": "ls()", "content": RESULTS[MKDIR][1]}])
    assert seen[4] == f"{[DOCS[3]]}\n{ADDED_FUNCTIONS}"  # the missed function's doc, in Python's words, with the turn
    assert _b4(tmp_path) == {"multi_turn_miss_func_0": (True, None)}


def test_a_multi_turn_item_without_its_function_docs_is_set_aside_saying_where_they_were_looked_for(tmp_path):
    with ChatServer() as server:
        folder = _dataset(tmp_path, server, [MISSED])
        (folder / "dataset.toml").write_text((folder / "dataset.toml").read_text().replace("../../bfcl", "../../none"))
        assert run(tmp_path) == 1  # its only item set aside: nothing to score
        assert server.chats() == []
    rejects = read_artifact_json(tmp_path / "outputs" / "episodes" / "m" / "B2_predictions.json")["rejects"]
    assert [r["reason"].split(":")[0] for r in rejects] == ["no function docs for GorillaFileSystem"]
    assert "/episodes/../../none/multi_turn_func_doc/gorilla_file_system.json (FileNotFoundError)" in rejects[0]["reason"]


def test_a_server_killed_inside_an_episode_leaves_it_not_scored_until_a_rerun_resumes_it(tmp_path, capsys,
                                                                                       killed_server):
    """#78: an episode whose server died mid-way is not scored (not wrong), the model not published; once the server
    is back, a rerun asks from the first step not answered and publishes."""
    _dataset(tmp_path, killed_server(2, agent=Agent()), [MISSED])  # turn 0's calls and its reply in words, then gone
    assert run(tmp_path) == 1
    assert ("model m: not published: 1 of 1 items not scored: the model server did not answer (connection refused) "
            "× 1") in capsys.readouterr().err
    with ChatServer() as back:
        back.agent = Agent()
        _dataset(tmp_path, back, [MISSED])
        assert run(tmp_path) == 0
        assert len(back.chats()) == 4  # the episode's 6 requests less the 2 in the journal
    assert _b4(tmp_path) == {"multi_turn_miss_func_0": (True, None)}
