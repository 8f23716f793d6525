"""What sharding could hide is named: ids in more than one shard, predictions whose question sits elsewhere."""
import pyarrow as pa

from stages.report.health import shard_problems


def test_ids_in_two_shards_are_counted_once_each_with_examples():
    shards = [pa.chunked_array([["q3", "q1", "q2", "2"]]), pa.chunked_array([["q4", "q2", "q3"], ["q5"]]),
              pa.chunked_array([pa.array([2, 6])])]
    problems = shard_problems(shards.__getitem__, len(shards), {})
    assert problems == ["3 question id(s) appear in more than one shard (e.g. '2', 'q2', 'q3')"]
    two = [pa.chunked_array([["a", "b"]]), pa.chunked_array([["c"]])]
    assert shard_problems(two.__getitem__, 2, {}) == []
    assert shard_problems([pa.chunked_array([[]], type=pa.string())].__getitem__, 1, {}) == []


def test_a_prediction_missing_in_one_shard_and_unmatched_in_another_is_astray():
    ids = [pa.chunked_array([["q1", "q2"]]), pa.chunked_array([["q3", "q4"]])]
    joins = {"m": [(["q2"], []), ([], ["q2", "x9"])], "n": [([], []), ([], ["x9"])]}
    assert shard_problems(ids.__getitem__, len(ids), joins) == [
        "model m: 1 prediction(s) sit in another shard's rows than their question (order predictions like the "
        "questions, or raise shard_rows)"]
