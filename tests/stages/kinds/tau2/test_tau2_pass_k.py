"""pass^k as tau2's metrics compute it, against values worked out by hand (and by tau2 1.0.1's pass_hat_k: the
same C(successes, k) / C(trials, k), checked in its venv — see make_tau2_reference.py)."""
import pytest

from stages.kinds.tau2.pass_k import pass_hat_k, pass_hat_ks, trial_figures


def test_pass_hat_k_is_the_share_of_k_subsets_all_successful():
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(4, 3, 1) == 0.75
    assert pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)  # C(3,2)=3 of C(4,2)=6
    assert pass_hat_k(4, 3, 3) == pytest.approx(1 / 4)
    assert pass_hat_k(4, 2, 3) == 0.0
    with pytest.raises(ValueError, match="Number of trials 2 is less than k 3."):
        pass_hat_k(2, 2, 3)


def test_pass_hat_ks_average_over_tasks_up_to_the_fewest_trials():
    rewards = {"a": [1.0, 1.0, 0.0, 1.0], "b": [0.0, 0.0, 1.0, 0.0], "c": [1.0, 1.0, 1.0]}
    # k stops at 3 (task c has three trials); a: 3/4, 3/6, 1/4; b: 1/4, 0, 0; c: 1, 1, 1
    assert pass_hat_ks(rewards) == pytest.approx({1: (0.75 + 0.25 + 1) / 3, 2: (0.5 + 0 + 1) / 3,
                                                  3: (0.25 + 0 + 1) / 3})
    assert pass_hat_ks({"a": [0.9999995]}) == {1: 1.0}  # a success is a reward within 1e-6 of 1


def test_infrastructure_errors_are_left_out_and_tasks_not_judged_named():
    trials = [{"task": "a", "reward": 1.0, "status": "scored", "termination_reason": "agent_stop"},
              {"task": "a", "reward": 0.0, "status": "scored", "termination_reason": "infrastructure_error"},
              {"task": "b", "reward": None, "status": "not judged", "termination_reason": "user_stop"},
              {"task": "b", "reward": 0.0, "status": "scored", "termination_reason": "agent_stop"},
              {"task": "c", "reward": 0.0, "status": "scored", "termination_reason": "max_steps"}]
    figures = trial_figures(trials)
    assert figures["pass_hat_k"] == {"1": 0.5}
    assert (figures["infrastructure_errors"], figures["not_judged"], figures["tasks_left_out"]) == (1, 1, ["b"])
    assert (figures["tasks"], figures["trials"], figures["avg_reward"]) == (2, 2, 0.5)
