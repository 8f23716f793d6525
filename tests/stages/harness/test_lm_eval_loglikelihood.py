"""lm-eval's loglikelihood samples read as loglikelihood items: the context, the choices as the task wrote them (each
continuation less the target delimiter), lm-eval's gold and each continuation's (loglikelihood, greedy) from resps."""
import pytest

from stages.harness.lm_eval_loglikelihood import loglikelihood_row, target_delimiter, unstated_delimiter


def _record(**changes):
    record = {"doc_id": 3, "target": 1,
              "arguments": {"gen_args_0": {"arg_0": "Où est-il?", "arg_1": " éé"},
                            "gen_args_1": {"arg_0": "Où est-il?", "arg_1": " abc"}},
              "resps": [[[-2.0, False]], [[-2.9, True]]], "filtered_resps": [[-2.0, False], [-2.9, True]],
              "acc": 0.0, "acc_norm": 1.0}
    return {**record, **changes}


def test_a_0_4_13_sample_as_an_item_and_its_loglikelihoods():
    question, prediction = loglikelihood_row(_record(), " ")
    assert question == {"question": "Où est-il?", "choices": ["éé", "abc"], "gold": 1}
    assert prediction == {"loglikelihoods": [-2.0, -2.9], "greedy": [False, True]}


def test_older_layouts_text_flags_and_a_target_naming_a_choice():
    record = _record(arguments=[["ctx", "=yes"], ["ctx", "=no"]], resps=[[["-1.5", "True"]], [["-0.5", "False"]]],
                     target="no")
    question, prediction = loglikelihood_row(record, "=")
    assert question["choices"] == ["yes", "no"] and question["gold"] == 1
    assert prediction == {"loglikelihoods": [-1.5, -0.5], "greedy": [True, False]}


@pytest.mark.parametrize(("changes", "reason"), [
    ({"arguments": [["a", " x"], ["b", " y"]]}, "different contexts"),
    ({"resps": [[[-1.0, False]]]}, "1 responses for 2 choices"),
    ({"target": 5}, "gold index 5 outside 2 choices"),
    ({"arguments": [["a", "x"], ["a", " y"]]}, "does not start with the target delimiter"),
])
def test_samples_that_cannot_be_items_say_why(changes, reason):
    with pytest.raises((ValueError, IndexError), match=reason):
        loglikelihood_row(_record(**changes), " ")


@pytest.mark.parametrize(("results", "config", "delimiter"), [
    ({"chat_template": None}, {"target_delimiter": " "}, " "),
    ({}, {"target_delimiter": "\n"}, "\n"),  # files before 0.4.3 record no chat template
    ({"chat_template": "{{ messages }}"}, {"target_delimiter": " "}, ""),
    ({"chat_template": ""}, {"target_delimiter": " "}, ""),  # applied through an API model with no tokenizer
    ({"chat_template": "t"}, {"target_delimiter": " ", "gen_prefix": "Answer:"}, " "),
    ({"chat_template": "t"}, {"target_delimiter": " ", "gen_prefix": "Answer: "}, ""),
    ({"chat_template": None}, {}, None),
])
def test_the_delimiter_is_the_task_configs_and_none_under_a_chat_template_as_lm_eval_0_4_13_builds_requests(
        results, config, delimiter):
    assert target_delimiter(results, config) == delimiter


def test_without_the_tasks_config_continuations_are_taken_as_they_are_unless_all_carry_lm_evals_default():
    chat = _record(arguments=[["ctx", "D"], ["ctx", " C"]])
    assert unstated_delimiter([(1, _record()), (2, chat)]) == ""
    assert unstated_delimiter([(1, _record())]) == " "
    question, _ = loglikelihood_row(chat, "")
    assert question["choices"] == ["D", " C"]
