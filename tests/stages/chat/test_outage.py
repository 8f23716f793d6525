"""The outage rule counted in one place: causes, each item once, the share against the limit, what to do."""
from stages.chat.outage import (
    Unscored,
    error_kind,
    judge_cause,
    missing_part_cause,
    model_unscored,
    next_steps,
    server_cause,
    unscored_problems,
)


def test_an_error_is_counted_by_its_kind_whatever_asked():
    assert error_kind("connection failed: [Errno 111] Connection refused") == "connection refused"
    assert error_kind("generation failed after 3 attempt(s): HTTP 500 Internal Server Error") == \
        "HTTP 500 Internal Server Error"
    assert error_kind("failed after 1 attempt(s): connection failed: timed out") == "timed out"
    assert error_kind("circuit open after 3 consecutive failures (last: HTTP 502 Bad Gateway)") == \
        "circuit open after 3 consecutive failures"
    assert server_cause("connection failed: [Errno 111] Connection refused") == \
        "the model server did not answer (connection refused)"


def test_each_item_is_counted_once_by_its_first_cause_and_bad_input_is_not_an_outage():
    questions = [{"location": "q9", "reason": "no id", "line": 3},  # bad input: neither scored nor not scored
                 {"location": "q1", "reason": "bfcl-eval missing", "unscored": missing_part_cause("bfcl-eval", "pip x")}]
    found = model_unscored(10, questions, {"q1": server_cause("timed out"), "q2": server_cause("timed out")},
                           {"q2": judge_cause("HTTP 503 Service Unavailable")})
    assert found.count == 2 and found.items == 10
    assert found.line() == ("2 of 10 items not scored: bfcl-eval is not installed (`pip x`) × 1, the model server did "
                            "not answer (timed out) × 1")


def test_a_share_over_the_limit_is_a_problem_and_at_it_is_not():
    at_limit = Unscored(50, {"q1": server_cause("timed out")})
    over = Unscored(49, {"q1": server_cause("timed out")})
    assert unscored_problems({"a": at_limit}, 0.02) == []
    assert unscored_problems({"b": over}, 0.02) == [
        "model b: not published: 1 of 49 items not scored: the model server did not answer (timed out) × 1 "
        "(share 0.0204 > max_unscored_share 0.02)"]
    assert at_limit.to_dict(0.02)["published"] and not over.to_dict(0.02)["published"]


def test_what_to_do_is_said_once_per_kind_of_cause():
    causes = [server_cause("timed out"), server_cause("connection refused"), judge_cause("timed out"),
              missing_part_cause("bfcl-eval", "pip install --no-deps bfcl-eval==2026.3.23 mpmath")]
    assert next_steps(causes, "nightly") == [
        "restart the model server and rerun `evalpipe nightly`: the journal asks only what is missing",
        "restart the judge's server and rerun `evalpipe nightly`: the journal asks only what is missing",
        "install what is missing (`pip install --no-deps bfcl-eval==2026.3.23 mpmath`) and rerun `evalpipe nightly`"]
