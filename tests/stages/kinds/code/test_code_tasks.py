"""Every registered code task (stages/kinds/code/tasks/, no list kept here) is a whole part the code kind accepts:
`task = name` passes the kind's rule and sets the task's defaults, and the task implements every stage the kind
hands it."""
import pytest

from stages.kinds import get_kind
from stages.kinds.code.tasks import CODE_TASKS, CodeTask
from stages.kinds.code.tasks.livecodebench import LIVECODEBENCH


def test_livecodebench_is_registered_by_its_name():
    assert CODE_TASKS.names() == ["livecodebench"] and CODE_TASKS.get("livecodebench") is LIVECODEBENCH
    assert get_kind("code").param_rules["task"]("humaneval") is not None


@pytest.mark.parametrize("name", CODE_TASKS.names())
def test_every_registered_code_task_is_a_whole_part_the_kind_accepts(name):
    kind, task = get_kind("code"), CODE_TASKS.get(name)
    assert task.name == name and kind.param_rules["task"](name) is None
    assert kind.task_defaults[name] == task.defaults and set(task.defaults) <= set(kind.defaults)
    stages = [n for n, v in vars(CodeTask).items() if callable(v) and not n.startswith("_")]
    assert all(getattr(type(task), n) is not getattr(CodeTask, n) for n in stages), stages
