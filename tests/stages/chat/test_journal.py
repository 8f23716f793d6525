"""The answer journal: the last record of a case wins, an answer is never undone by a later failure of the same
request, a torn line is set aside and never glued to the next, samples keyed apart."""
from stages.chat.journal import AnswerStore, journal_key


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
