"""Live generation against a real server on 127.0.0.1: [generate] checked, answers journaled and reused when asked
the same way, failures set aside with their reason, several samples per item, and the summary B6 shows."""
import pytest

from stages.chat.generation import generate_predictions, generation_summary, read_generate_config, request_key
from stages.core.errors import UsageError
from tests.pipeline.chat_server import ChatServer


@pytest.fixture
def server():
    with ChatServer() as chat:
        yield chat


def _cases(n: int) -> list[dict]:
    return [{"id": f"q{i}", "conversation": f"q{i}", "prompt": f"question {i}"} for i in range(n)]


def test_generate_without_protocol_is_openai_and_bad_tables_say_what_is_wrong():
    config = read_generate_config({"url": "http://127.0.0.1:1", "models": {"qwen": "Qwen/Qwen2.5-7B"}}, "d.toml")
    assert config.protocol == "openai" and config.served("qwen") == "Qwen/Qwen2.5-7B" and config.served("x") == "x"
    for table, message in (({"url": "u", "models": ["m"], "protcol": "x"}, "unknown .generate. key.s. protcol"),
                           ({"url": "u", "models": []}, "needs url"),
                           ({"url": "u", "models": ["org/model"]}, "give the server's name a folder name"),
                           ({"url": "u", "models": ["m"], "stop": 3}, "stop must be text"),
                           ({"url": "u", "models": ["m"], "prompt_template": "Answer."}, r"must use \{question\}")):
        with pytest.raises(UsageError, match=message):
            read_generate_config(table, "d.toml")


def test_samples_must_be_a_whole_number_and_every_bad_key_of_the_table_is_said_at_once():
    with pytest.raises(UsageError) as raised:
        read_generate_config({"url": "u", "models": ["m"], "samples": 2.5}, "d.toml")
    assert str(raised.value) == "d.toml: [generate] samples = 2.5 must be a whole number ≥ 1"
    with pytest.raises(UsageError) as raised:
        read_generate_config({"url": "u", "models": ["m", "org/m"], "max_tokens": "4096", "samples": 2.5, "stop": 3,
                              "temprature": 0, "price": 1, "prompt_template": "Answer."}, "d.toml")
    said = str(raised.value)
    assert "\n" not in said and said.startswith("d.toml: unknown [generate] key(s) temprature (allowed: ")
    for problem in ("[generate] model 'org/m'", "[generate] max_tokens = '4096' must be a whole number ≥ 1",
                    "[generate] samples = 2.5 must be a whole number ≥ 1", "[generate] stop must be text",
                    "[generate] price must be", "prompt template must use {question}"):
        assert f"; {problem}" in said


def test_the_request_key_follows_what_changes_an_answer():
    config = read_generate_config({"url": "u", "models": ["m"], "temperature": 0.0}, "d.toml")
    key = request_key(config, "m", "p")
    assert key == request_key(read_generate_config({"url": "v", "models": ["m", "n"], "temperature": 0.0,
                                                    "timeout": 5, "samples": 4}, "d.toml"), "m", "p")
    assert key != request_key(read_generate_config({"url": "u", "models": ["m"], "temperature": 0.7}, "d.toml"),
                              "m", "p")
    assert len({key, request_key(config, "m", "p", 1), request_key(config, "m", "q")}) == 3


def test_answers_are_journaled_reused_and_failures_set_aside_with_their_reason(server, tmp_path):
    config = read_generate_config({"url": server.url, "models": ["m"], "retries": 0, "concurrency": 2,
                                   "price": {"input": 1.0, "output": 2.0}}, "d.toml")
    journal = tmp_path / "journal.jsonl"
    cases = [*_cases(3), {"id": "bad", "conversation": "bad", "prompt": "ALWAYS500"}]
    result = generate_predictions(cases, config, "m", journal)
    assert sorted(result.columns["id"]) == ["q0", "q1", "q2"] and result.input_rows == 4
    assert dict(zip(result.columns["id"], result.columns["prediction"]))["q1"] == "m says: question 1 [turn 1]"
    (reject,) = result.rejects
    assert (reject.location, reject.reason) == ("bad", "generation failed after 1 attempt(s): HTTP 500 Internal Server Error")
    asked = len(server.chats())
    again = generate_predictions(cases, config, "m", journal)
    assert len(server.chats()) == asked + 1  # only the failed one asked again
    assert sorted(again.columns["id"]) == ["q0", "q1", "q2"]
    summary = generation_summary(journal, ["q0", "q1", "q2", "bad"], config.price)
    assert summary["answers"] == 3 and summary["failures"] == {"HTTP 500 Internal Server Error": 1}
    assert summary["tokens_in"] == 6 and summary["tokens_out"] == 18  # "question i" in; "m says: question i [turn 1]" out
    assert summary["cost"] == pytest.approx((6 * 1.0 + 18 * 2.0) / 1_000_000)


def test_several_samples_per_item_each_with_its_own_seed(server, tmp_path):
    config = read_generate_config({"url": server.url, "models": ["m"], "samples": 3, "seed": 10}, "d.toml")
    result = generate_predictions(_cases(2), config, "m", tmp_path / "journal.jsonl")
    assert list(zip(result.columns["id"], result.columns["sample"])) == [
        ("q0", 0), ("q0", 1), ("q0", 2), ("q1", 0), ("q1", 1), ("q1", 2)]
    assert sorted(r["body"]["seed"] for r in server.chats()) == [10, 10, 11, 11, 12, 12]
    assert generation_summary(tmp_path / "journal.jsonl", ["q0", "q1"], samples=3)["answers"] == 6
