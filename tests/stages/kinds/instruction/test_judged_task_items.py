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


def test_an_hle_image_in_any_shape_sets_its_question_aside_and_only_an_empty_one_is_text_only():
    shown = [{"bytes": "iVBORw0KGgo=", "path": None}, {"bytes": None, "path": "img/1.png"},
             ["data:image/png;base64,AAAA"], [{"bytes": None, "path": None}, {"url": "https://x/a.png"}],
             "https://x/a.png", True]
    empty = [None, "", "  \n", [], {}, {"bytes": None, "path": None}, [None, ""], False]
    for image in shown:
        fields = KIND.question_fields({"image": image}, "What is shown?")
        assert KIND.check_gold(["a cat"], fields, {"task": "hle"}) == (
            "HLE question with an image (text-only: the model would not see it)"), image
    for image in empty:
        assert KIND.check_gold(["42"], KIND.question_fields({"image": image}, "6 x 7?"), {"task": "hle"}) is None


def test_an_hle_row_without_its_answer_column_is_set_aside_with_the_reason(tmp_path):
    path = tmp_path / "questions.jsonl"
    rows = [{"id": "h1", "question": "6 x 7?", "answer": "42", "answer_type": "exactMatch", "image": ""},
            {"id": "h2", "question": "7 x 7?", "answer_type": "exactMatch", "image": ""},
            {"id": "h3", "question": "8 x 7?", "answer": "", "image": ""},
            {"id": "h4", "question": "What is shown?", "answer": "cat",
             "image": {"bytes": "iVBORw0KGgo=", "path": None}}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    loaded = KIND.load_gold(path, {"question_field": "question"}, params={"task": "hle"})
    assert [(reject.line, reject.reason) for reject in loaded.rejects] == [
        (2, "no gold answer"), (3, "no gold answer"),
        (4, "HLE question with an image (text-only: the model would not see it)")]
    assert loaded.counts() == {"input_rows": 4, "accepted": 1, "rejected": 3}


def test_hles_items_are_asked_with_its_scripts_system_prompt_and_others_with_none(tmp_path):
    from pathlib import Path

    from stages.core.records import as_columns

    expected = json.loads((Path(__file__).parent / "hle" / "system_prompt.json").read_text())["SYSTEM_PROMPT"]
    path = tmp_path / "questions.jsonl"
    path.write_text(json.dumps({"id": "h1", "question": "6 x 7?", "answer": "42", "image": ""}) + "\n")
    asked = {task: KIND.system_prompt(as_columns(KIND.load_gold(path, {"question_field": "question"},
                                                                params={"task": task}).columns))
             for task in ("hle", "simpleqa", "")}
    assert asked == {"hle": expected, "simpleqa": None, "": None}
