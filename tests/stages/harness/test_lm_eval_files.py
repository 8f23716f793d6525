"""Where lm-eval put its samples, found by content in files lm-eval wrote (0.4.13's samples_<task>_<time>.jsonl, 0.4.0's
JSON array named after the model's arguments); results files and 0.3's --write_out files refused by name."""
import gzip
import shutil
from pathlib import Path

import pytest

from stages.core.errors import UsageError
from stages.harness.imported import SkippedFile
from stages.harness.lm_eval_files import SamplesFile, doc_ids, find_samples, question_text, requests, single

HARNESS = Path(__file__).resolve().parents[2] / "pipeline" / "harness_files"
BERT = HARNESS / "lm_eval" / "bert"


def test_a_current_samples_file_gives_its_task_and_the_results_written_with_it():
    (found,) = find_samples([BERT])
    assert isinstance(found, SamplesFile) and found.task == "squad_local"
    assert "squad_local" in found.results["results"] and len(found.records.records) == 31
    first = found.records.records[0][1]
    assert question_text(first) == "Which NFL team represented the AFC at Super Bowl 50?"
    assert requests(first)[0][1] == {"until": ["\n"], "do_sample": False}
    assert doc_ids([record for _, record in found.records.records])[:2] == ["56be4db0acb8001400a502ec",
                                                                           "56beb86b3aeaaa14008c92c1"]


def test_an_old_array_file_takes_its_task_from_the_results_beside_it():
    found = {item.task: item for item in find_samples([HARNESS / "lm_eval_0.4.0"]) if isinstance(item, SamplesFile)}
    assert set(found) == {"squad_local", "cmmlu_agronomy_local"}
    record = found["squad_local"].records.records[0][1]
    assert requests(record)[0][0].startswith("Question: Which NFL team")


def test_files_that_are_not_samples_are_refused_with_why(tmp_path):
    results = next(BERT.glob("results_*.json"))
    (refusal,) = find_samples([results])
    assert refusal.refused and "the samples are the files lm-eval writes beside it" in refusal.reason
    only_results = tmp_path / "run"
    only_results.mkdir()
    shutil.copy(results, only_results / results.name)
    (refusal,) = find_samples([only_results])
    assert refusal.refused and "but no samples" in refusal.reason
    write_out = tmp_path / "squad_write_out_info.json"
    write_out.write_text("[]")
    (refusal,) = find_samples([write_out])
    assert "0.3 --write_out" in refusal.reason
    with pytest.raises(UsageError, match="no such file or folder"):
        list(find_samples([tmp_path / "missing"]))


def test_a_gzipped_samples_file_under_another_name_is_found_beside_unrelated_json(tmp_path):
    samples = next(BERT.glob("samples_*.jsonl"))
    (tmp_path / "renamed.jsonl.gz").write_bytes(gzip.compress(samples.read_bytes()))
    (tmp_path / "notes.json").write_text('{"unrelated": true}')
    found = list(find_samples([tmp_path]))
    assert len(found) == 1 and isinstance(found[0], SamplesFile) and len(found[0].records.records) == 31
    assert not any(isinstance(item, SkippedFile) for item in found)


def test_single_unwraps_lists_and_ids_fall_back_to_doc_id_when_documents_share_one():
    assert single([["x"]]) == "x" and single(["a", "b"]) == ["a", "b"]
    records = [{"doc_id": 0, "doc": {"id": "same"}}, {"doc_id": 1, "doc": {"id": "same"}}]
    assert doc_ids(records) == ["0", "1"]
    assert requests({"arguments": [["prompt", {"until": []}]]}) == [["prompt", {"until": []}]]
