"""lm-eval's loglikelihood samples read as loglikelihood items: the context, the choices as the task wrote them (each
continuation less the target delimiter), lm-eval's gold and each continuation's (loglikelihood, greedy) from resps."""
import pytest

from stages.harness.lm_eval_loglikelihood import loglikelihood_row


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
