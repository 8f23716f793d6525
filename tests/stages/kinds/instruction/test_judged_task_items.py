"""#80: the instruction kind's judged tasks: `task` names one, a task's item needs its gold, and HLE's image
questions are set aside with the reason."""
import json

from stages.judge.tasks import judged_task_names
from stages.kinds import get_kind
from stages.kinds.instruction.kind import instruction_field
from stages.kinds.instruction.tasks import TASK_ITEMS

KIND = get_kind("instruction")


def test_task_names_a_judged_task_or_nothing():
    rule = KIND.param_rules["task"]
    assert rule("") is None and rule("simpleqa") is None and rule("hle") is None
    assert rule("hellaswag") == "must be one of '', 'hle', 'simpleqa'"
    assert sorted(TASK_ITEMS) == judged_task_names()  # every task the kind asks is graded by the judge, and back


def test_a_judged_tasks_item_needs_its_gold_and_hle_sets_image_questions_aside():
    image = KIND.question_fields({"image": "data:image/png;base64,AAAA"}, "What is shown?")
    text_only = KIND.question_fields({"image": ""}, "What is 6 x 7?")
    assert (image["image"], text_only["image"]) == (True, False)
    assert KIND.check_gold(["a cat"], image, {"task": "hle"}) == (
        "HLE question with an image (text-only: the model would not see it)")
    assert KIND.check_gold(["42"], text_only, {"task": "hle"}) is None
    assert KIND.check_gold([], text_only, {"task": "simpleqa"}) == "no gold answer"
    assert KIND.check_gold([], image, {"task": ""}) is None  # an instruction's reference is optional


def test_simpleqas_problem_column_is_the_instruction(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_text(json.dumps({"metadata": "{}", "problem": "Capital of France?", "answer": "Paris"}) + "\n")
    assert instruction_field(path) == "problem"
