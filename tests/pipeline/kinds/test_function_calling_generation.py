"""[generate] on a function_calling dataset against a scripted server on 127.0.0.1: each item's functions sent as
OpenAI `tools` (names with dots made legal, bfcl-eval's language hints added, BFCL's types mapped as its
function-calling handlers map them), the
reply's tool_calls read and checked as BFCL checks a function-calling model's calls, and a rerun asking nothing."""
import json
import shutil

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.chat_server import ChatServer
from tests.pipeline.workspace import REPO, run

FIXTURE = REPO / "tests" / "stages" / "kinds" / "function_calling" / "conformance" / "questions.jsonl"
CALLS = {"Weather in Paris": [("weather_current", {"city": "Paris", "unit": "celsius"})],
         "Areas of circles": [("circle_area", {"radius": 2}), ("circle_area", {"radius": 4})],
         "Cache 'session'": [("Cache_put", {"key": "session", "ttl": "60L"})]}


def _tool_calls(message, tools):
    for text, calls in CALLS.items():
        if text in message:
            return [{"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                    for i, (name, args) in enumerate(calls)]
    return None  # the joke: answered in words


def test_functions_go_as_tools_and_tool_calls_come_back_scored(tmp_path):
    folder = tmp_path / "inputs" / "tools"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURE, folder / "questions.jsonl")
    with ChatServer() as server:
        server.tool_calls = _tool_calls
        (folder / "dataset.toml").write_text(
            f'kind = "function_calling"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
            'timeout = 2\nretries = 0\n')
        assert run(tmp_path) == 0
        chats = server.chats()
        assert len(chats) == 4
        sent = {chat["body"]["messages"][-1]["content"]: chat["body"]["tools"] for chat in chats}
        weather = sent["Weather in Paris, in celsius?"][0]
        assert weather["type"] == "function" and weather["function"]["name"] == "weather_current"
        assert weather["function"]["parameters"]["type"] == "object"
        area = sent["Areas of circles of radius 2 and 3?"][0]["function"]["parameters"]["properties"]["radius"]
        assert (area["type"], area["format"]) == ("number", "float") and area["description"].endswith(
            " This is a float type value.")
        assert weather["function"]["description"].endswith(". Note that the provided function is in Python 3 syntax.")
        ttl = sent["Cache 'session' for 60 seconds."][0]["function"]["parameters"]["properties"]["ttl"]
        assert ttl == {"type": "string",  # bfcl-eval's language hint: Java's parameters sent as strings
                       "description": "Seconds. This is Java long type parameter in string representation."}
        assert run(tmp_path) == 0 and len(server.chats()) == 4  # answers on disk: nothing asked again
    b4 = read_columns(tmp_path / "outputs" / "tools" / "m" / "B4_matches.json")
    assert dict(zip(b4["id"], zip(b4["valid"], b4["error_type"]))) == {
        "simple_python_0": (True, None),  # weather_current is weather.current with its dots made legal
        "parallel_0": (False, "parallel_function_checker_no_order:cannot_find_match"),  # radius 4, not 3
        "simple_java_0": (True, None),
        "irrelevance_0": (True, None)}  # answered in words: no call
    b2 = read_artifact_json(tmp_path / "outputs" / "tools" / "m" / "B2_predictions.json")
    assert b2["header"]["generated"] is True


TEXTS = {"Weather in Paris": "[weather.current(city='Paris', unit='celsius')]",
         "Areas of circles": "[circle_area(radius=3), circle_area(radius=2)]",
         "Cache 'session'": '[Cache.put(key="session", ttl=60)]', "Tell me a joke": "I would rather not call anything."}


def test_prompt_mode_sends_bfcls_system_prompt_and_no_tools_and_reads_the_text(tmp_path):
    folder = tmp_path / "inputs" / "prompted"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURE, folder / "questions.jsonl")
    with ChatServer() as server:
        server.answer = lambda message: next(text for start, text in TEXTS.items() if start in message)
        (folder / "dataset.toml").write_text(
            f'kind = "function_calling"\n[generate]\nprotocol = "openai"\nurl = "{server.url}"\nmodels = ["m"]\n'
            'timeout = 2\nretries = 0\nmode = "prompt"\n')
        assert run(tmp_path) == 0
        chats = server.chats()
        assert run(tmp_path) == 0 and len(server.chats()) == len(chats) == 4
    assert not any("tools" in chat["body"] for chat in chats)
    for chat in chats:
        system, user = chat["body"]["messages"]
        assert system["role"] == "system" and user["role"] == "user"
        assert system["content"].startswith("You are an expert in composing functions.You are given a question and a "
                                            "set of possible functions.")
        assert "you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2"\
               "...), func_name2(params)].  You SHOULD NOT include any other text in the response." in system["content"]
    weather = next(chat for chat in chats if "Weather" in chat["body"]["messages"][1]["content"])
    prompt = weather["body"]["messages"][0]["content"]
    docs = json.loads(prompt.split("Here is a list of functions in json format that you can invoke.\n")[1])
    assert docs[0]["name"] == "weather.current"  # BFCL's own name, dots kept
    assert docs[0]["description"] == "Current weather in a city. Note that the provided function is in Python 3 syntax."
    b4 = read_columns(tmp_path / "outputs" / "prompted" / "m" / "B4_matches.json")
    assert dict(zip(b4["id"], zip(b4["valid"], b4["error_type"]))) == {
        "simple_python_0": (True, None), "parallel_0": (True, None),  # any order
        "simple_java_0": (False, "type_error:simple"),  # bfcl-eval's verdict on this text (conformance/expected.json)
        "irrelevance_0": (True, None)}  # no call decoded from the words


def test_a_mode_other_than_tools_or_prompt_is_refused_in_one_line(tmp_path, capsys):
    folder = tmp_path / "inputs" / "prompted"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURE, folder / "questions.jsonl")
    (folder / "dataset.toml").write_text('kind = "function_calling"\n[generate]\nurl = "http://127.0.0.1:9"\n'
                                         'models = ["m"]\nmode = "json"\n')
    assert run(tmp_path) != 0
    assert "[generate] mode = 'json': kind 'function_calling' asks in mode 'tools' or 'prompt'" in capsys.readouterr().err
