import os
import time

import pytest

from stages.io import file_facts
from stages.io.file_facts import facts_kept_in, file_fact


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    """Each test starts as a new process would: nothing remembered."""
    monkeypatch.setattr(file_facts, "_FACTS", {})
    monkeypatch.setattr(file_facts, "_KEEP", [])


def _settled(path, seconds_ago=60):
    then = time.time() - seconds_ago
    os.utime(path, (then, then))


def _new_process():
    file_facts._FACTS.clear()


def test_a_fact_is_computed_once_per_version_of_the_file(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("one\n")
    calls = []
    assert file_fact(path, "size", lambda: calls.append(1) or path.stat().st_size) == 4
    assert file_fact(path, "size", lambda: calls.append(1) or path.stat().st_size) == 4
    assert len(calls) == 1
    path.write_text("three\n")
    assert file_fact(path, "size", lambda: calls.append(1) or path.stat().st_size) == 6
    assert len(calls) == 2


def test_facts_of_settled_files_outlive_the_run_and_a_changed_file_is_read_again(tmp_path):
    store, path = tmp_path / ".facts.json", tmp_path / "data.jsonl"
    path.write_text("aaaa\n")
    _settled(path)
    with facts_kept_in(store):
        assert file_fact(path, "text", path.read_text) == "aaaa\n"
    assert store.exists()

    _new_process()
    with facts_kept_in(store):
        assert file_fact(path, "text", lambda: pytest.fail("read again although unchanged")) == "aaaa\n"

    _new_process()
    path.write_text("bbbb\n")  # same size, new content and mtime
    _settled(path, seconds_ago=30)
    with facts_kept_in(store):
        assert file_fact(path, "text", path.read_text) == "bbbb\n"


def test_a_file_changed_just_now_is_not_remembered_across_runs(tmp_path):
    store, path = tmp_path / ".facts.json", tmp_path / "data.jsonl"
    path.write_text("fresh\n")
    with facts_kept_in(store):
        file_fact(path, "text", path.read_text)
    _new_process()
    calls = []
    with facts_kept_in(store):
        file_fact(path, "text", lambda: calls.append(1) or path.read_text())
    assert calls == [1]


def test_an_unreadable_store_means_nothing_remembered(tmp_path):
    store, path = tmp_path / ".facts.json", tmp_path / "data.jsonl"
    store.write_text("{not json")
    path.write_text("x\n")
    with facts_kept_in(store):
        assert file_fact(path, "text", path.read_text) == "x\n"


def test_nothing_is_written_where_the_folder_is_not(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("x\n")
    _settled(path)
    with facts_kept_in(tmp_path / "outputs" / ".facts.json"):
        file_fact(path, "text", path.read_text)
    assert not (tmp_path / "outputs").exists()


def test_a_same_size_rewrite_with_its_mtime_put_back_is_read_again(tmp_path):
    store, path = tmp_path / ".facts.json", tmp_path / "data.jsonl"
    path.write_text("aaaa\n")
    _settled(path)
    before = os.stat(path)
    with facts_kept_in(store):
        assert file_fact(path, "text", path.read_text) == "aaaa\n"
    time.sleep(0.01)
    with open(path, "r+") as handle:  # in place: same inode, same size
        handle.write("bbbb\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns and os.stat(path).st_ino == before.st_ino
    _new_process()
    with facts_kept_in(store):
        assert file_fact(path, "text", path.read_text) == "bbbb\n"
