"""A task named beside a kind that does not take it names the kind that does (#80: SimpleQA and HLE are tasks of the
instruction kind, LiveCodeBench of code); a task no kind takes keeps the kind's own message."""
import pytest

from stages.core.errors import UsageError
from stages.io.dataset_config import DatasetConfig
from stages.kinds.base import get_kind
from stages.kinds.dataset_kind import kind_params


@pytest.mark.parametrize("kind, config, says", [
    ("qa", DatasetConfig(kind="qa", task="simpleqa"),
     "task 'simpleqa' is a task of kind 'instruction', not of kind 'qa': set kind = \"instruction\""),
    ("qa", DatasetConfig(kind="qa", params={"task": "hle"}),
     "task 'hle' is a task of kind 'instruction', not of kind 'qa': set kind = \"instruction\""),
    ("instruction", DatasetConfig(kind="instruction", task="livecodebench"),
     "task 'livecodebench' is a task of kind 'code', not of kind 'instruction': set kind = \"code\""),
    ("qa", DatasetConfig(kind="qa", task="simpelqa"), "unknown parameter 'task'"),
])
def test_a_task_of_another_kind_says_which_kind_to_set(tmp_path, kind, config, says):
    with pytest.raises(UsageError) as raised:
        kind_params(get_kind(kind), config, tmp_path, {})
    assert says in str(raised.value) and str(tmp_path / "dataset.toml") in str(raised.value)


def test_a_task_of_its_own_kind_is_taken(tmp_path):
    assert kind_params(get_kind("instruction"), DatasetConfig(kind="instruction", task="hle"), tmp_path, {})["task"] == "hle"
