"""The answer journal: the last record of a case wins, an answer is never undone by a later failure of the same
request, a torn line is set aside and never glued to the next, samples keyed apart."""
from stages.chat.journal import AnswerStore, failure_record, journal_key


def test_cases_are_keyed_by_id_and_later_samples_apart():
    assert journal_key({"id": "q1"}) == "q1"
    assert journal_key({"id": "q1", "sample": 0}) == "q1"
    assert journal_key({"id": "q1", "sample": 2}) == ("q1", 2)
    assert journal_key({"id": "q1", "sample": True}) == "q1"


def test_last_record_wins_but_an_answer_survives_a_later_failure_of_the_same_request(tmp_path):
    store = AnswerStore(tmp_path / "journal.jsonl")
    store.extend([{"id": "a", "key": "k1", "error": "HTTP 500"}, {"id": "a", "key": "k1", "prediction": "yes"},
                  {"id": "a", "key": "k1", "error": "timeout"}, {"id": "b", "key": "k2", "prediction": "old"},
                  {"id": "b", "key": "k3", "error": "HTTP 500"}])
    found = store.load()
    assert found["a"]["prediction"] == "yes"
    assert "prediction" not in found["b"]  # a new request (another key) that failed: asked again
    assert store.has_failures()
    assert list(store.load(wanted={"a"})) == ["a"]


def test_a_line_torn_by_a_kill_is_set_aside_and_the_next_append_starts_a_line_of_its_own(tmp_path):
    path = tmp_path / "journal.jsonl"
    store = AnswerStore(path)
    store.append({"id": "a", "prediction": "1"})
    with open(path, "ab") as handle:
        handle.write(b'{"id": "b", "predic')
    store.append({"id": "c", "prediction": "3"})
    assert path.read_bytes().count(b"\n") == 3
    assert sorted(store.load()) == ["a", "c"]
    assert not store.has_failures()


def test_every_askers_request_key_is_the_one_its_journals_were_written_with():
    """One digest for every asker, each keeping its key length: journals written before are still found."""
    import hashlib

    import orjson

    from stages.chat.generation import GenerateConfig, request_key
    from stages.kinds.loglikelihood.loglikelihoods import pair_key
    from stages.kinds.loglikelihood.rolling import text_key

    def digest(asked, length):
        return hashlib.sha256(orjson.dumps(asked, option=orjson.OPT_SORT_KEYS)).hexdigest()[:length]

    config = GenerateConfig(protocol="openai", url="http://127.0.0.1:9", models=("m",))
    settings = {k: v for k, v in config.described().items() if k not in (
        "timeout", "retries", "backoff", "url", "circuit_breaker", "models", "served_models", "price", "samples",
        "top_logprobs", "mode")}
    assert request_key(config, "m", "Hi?") == digest({"model": "m", "prompt": "Hi?", **settings}, 16)
    assert pair_key("m", 2048, ("a", " b")) == digest({"model": "m", "max_length": 2048, "context": "a",
                                                       "continuation": " b"}, 24)
    assert text_key("m", 2048, "text") == digest({"model": "m", "max_length": 2048, "rolling": "text"}, 24)


def test_a_failure_record_is_the_requests_identity_then_its_error_and_attempts_and_never_undoes_an_answer(tmp_path):
    record = failure_record({"id": "q1", "sample": 2, "key": "k"}, "connection failed: refused", 0)
    assert list(record) == ["id", "sample", "key", "error", "attempts"] and record["attempts"] == 0
    store = AnswerStore(tmp_path / "journal.jsonl")
    store.extend([{"id": "q1", "sample": 2, "key": "k", "prediction": "4"}, record])
    assert store.load()[("q1", 2)]["prediction"] == "4"
