"""Calls, BFCL's possible answers and multi-turn ground truths drawn as people read them, and the kind's reading of a
valid item as its calls, not the list text B4 keeps them as."""
import json

from stages.kinds import get_kind
from stages.kinds.function_calling.call_text import answer_text, calls_text, ground_truth_turns, possible_answer_calls


def test_decoded_calls_read_as_calls_with_json_values():
    assert calls_text("[{'weather.current': {'city': 'Lyon'}}]") == ['weather.current(city="Lyon")']
    assert calls_text("[{'f': {'x': [1, 2], 'y': 'é'}}, {'g': {}}]") == ['f(x=[1, 2], y="é")', "g()"]
    assert calls_text("[]") == [] and calls_text(None) is None and calls_text("['text']") is None
    assert calls_text("not python") is None


def test_a_possible_answer_lists_each_arguments_accepted_values_and_whether_it_may_be_left_out():
    answer = [{"weather.current": {"city": ["Lyon", "lyon"], "unit": ["celsius", ""], "days": [""]}}]
    assert possible_answer_calls(answer) == ['weather.current(city="Lyon" | "lyon", unit="celsius" optional, '
                                             'days left out)']
    assert possible_answer_calls([{"f": {"xs": [[1, 2], [2, 1]]}}, {"g": {}}]) == ["f(xs=[1, 2] | [2, 1])", "g()"]
    assert possible_answer_calls([["ls()"]]) is None and possible_answer_calls({"f": {}}) is None


def test_a_multi_turn_ground_truth_reads_turn_by_turn():
    assert ground_truth_turns([["cd(folder='doc')", "ls()"], []]) == "turn 1: cd(folder='doc'), ls(); turn 2: no call"
    assert ground_truth_turns([{"f": {}}]) is None and ground_truth_turns([]) is None


def test_answer_text_draws_b1s_json_gold_of_either_shape_and_leaves_other_text_as_it_is():
    assert answer_text(json.dumps([{"circle_area": {"radius": [2.0]}}, {"circle_area": {"radius": [3.0]}}])) == \
        "circle_area(radius=2.0); circle_area(radius=3.0)"
    assert answer_text(json.dumps([["mkdir(dir_name='x')"]])) == "turn 1: mkdir(dir_name='x')"
    assert answer_text("no call") == "no call" and answer_text('{"odd": 1}') == '{"odd": 1}'


def test_a_valid_items_reading_is_its_calls_not_their_list_text():
    kind = get_kind("function_calling")
    assert kind.item_view({"status": "correct", "decoded": "[{'Cache_put': {'key': 'session', 'ttl': '60L'}}]"}) == (
        "correct", 'valid: Cache_put(key="session", ttl="60L")')
    assert kind.item_view({"status": "correct", "decoded": None}) == ("correct", "valid")
    assert kind.item_view({"status": "correct", "decoded": "[]"}) == ("correct", "valid: no call")
    assert kind.item_view({"status": "wrong", "error_type": "simple_function_checker:missing_required",
                           "reason": "missing required 'city'"}) == (
        "wrong", "simple_function_checker:missing_required: missing required 'city'")
