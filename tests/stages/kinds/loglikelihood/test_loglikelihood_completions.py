"""Loglikelihoods asked of the n-gram server as lm-eval's local-completions asks them, each checked against the model
itself: the echoed continuation's log-probs summed, greedy, an empty context, a context past the max length cut from
the left and counted, a server that ignores echo, batching, concurrency, deduplication and the journal."""
import pytest

from stages.chat.completions import EchoRefused
from stages.kinds.loglikelihood.loglikelihoods import ask_loglikelihoods
from tests.pipeline.ngram_server import BOS, NgramModel


def _expected(model: NgramModel, context: list[int], continuation: list[int]) -> tuple[float, bool]:
    """The model's own sum over the continuation's tokens and whether each is its position's most likely."""
    history, total, greedy = [BOS, BOS, *context], 0.0, True
    for token in continuation:
        a, b = history[-2], history[-1]
        total += model.logprob(a, b, token)
        greedy = greedy and model.prob(a, b, token) == model.prob(a, b, model.best(a, b))
        history.append(token)
    return total, greedy


def _completion_prompts(server):
    return [body["prompt"] for r in server.requests if r["path"] == "/v1/completions" for body in [r["body"]]]


def test_sums_the_continuations_echoed_logprobs_as_the_model_gives_them(server, tmp_path, completions_config):
    model = server.model
    pairs = [("The cat sat on the", " mat."), ("Question: Which one?\nAnswer:", " B"), ("The", " cat sat")]
    found = ask_loglikelihoods(pairs, completions_config(), "ngram", tmp_path / "j.jsonl")
    for context, continuation in pairs:
        tokens = model.encode(context)
        expected = _expected(model, tokens, model.encode(context + continuation)[len(tokens):])
        assert found.found[(context, continuation)][0] == pytest.approx(expected[0], abs=1e-12)
        assert found.found[(context, continuation)][1] == expected[1]
    body = next(r["body"] for r in server.requests if r["path"] == "/v1/completions")
    assert {k: body[k] for k in ("echo", "logprobs", "max_tokens", "temperature", "seed")} == {
        "echo": True, "logprobs": 1, "max_tokens": 1, "temperature": 0, "seed": 1234}
    assert all(isinstance(t, int) for prompt in body["prompt"] for t in prompt)  # token ids, not text


def test_a_greedy_continuation_is_flagged(server, tmp_path, completions_config):
    model = server.model
    context = model.encode("The cat sat on")
    history, continuation = [BOS, BOS, *context], []
    for _ in range(3):
        continuation.append(model.best(history[-2], history[-1]))
        history.append(continuation[-1])
    text = model.decode(continuation)
    found = ask_loglikelihoods([("The cat sat on", text)], completions_config(), "ngram", tmp_path / "j.jsonl")
    assert found.found[("The cat sat on", text)][1] is True


def test_the_contexts_trailing_space_moves_to_the_continuation(server, tmp_path, completions_config):
    found = ask_loglikelihoods([("The cat sat on the ", "mat."), ("The cat sat on the", " mat.")], completions_config(),
                               "ngram", tmp_path / "j.jsonl")
    assert found.found[("The cat sat on the ", "mat.")] == found.found[("The cat sat on the", " mat.")]


def test_an_empty_context_stands_as_the_bos_token(server, tmp_path, completions_config):
    model = server.model
    found = ask_loglikelihoods([("", "The cat")], completions_config(), "ngram", tmp_path / "j.jsonl")
    assert found.found[("", "The cat")][0] == pytest.approx(_expected(model, [BOS], model.encode("The cat"))[0])
    assert _completion_prompts(server)[0][0][0] == BOS


def test_a_context_past_the_max_length_is_cut_from_the_left_and_counted(server, tmp_path, completions_config):
    model = server.model
    context, continuation = "word " * 40 + "The cat sat on the", " mat."
    found = ask_loglikelihoods([(context, continuation), ("The", " cat")], completions_config(max_length=21), "ngram",
                               tmp_path / "j.jsonl")
    assert found.truncated == 1
    whole = model.encode(context + continuation)
    cont = whole[len(model.encode(context)):]
    kept = whole[-20:]  # max_length − 1 tokens, as lm-eval keeps one for the generated token
    assert _completion_prompts(server)[0][0] == kept
    assert found.found[(context, continuation)][0] == pytest.approx(_expected(model, kept[:-len(cont)], cont)[0])


def test_a_server_that_ignores_echo_is_refused_not_scored_at_chance(server, tmp_path, completions_config):
    server.ignore_echo = True
    with pytest.raises(EchoRefused, match="echo ignored"):
        ask_loglikelihoods([("The", " cat")], completions_config(), "ngram", tmp_path / "j.jsonl")


def test_several_prompts_per_request_each_distinct_pair_once_and_a_rerun_asks_nothing(server, tmp_path,
                                                                                     completions_config):
    pairs = [(f"Context {i % 7}", f" end {i % 3}") for i in range(40)]  # 21 distinct pairs
    config = completions_config(batch_size=5, concurrency=3)
    first = ask_loglikelihoods(pairs, config, "ngram", tmp_path / "j.jsonl")
    prompts = _completion_prompts(server)
    assert (first.distinct, first.asked) == (21, 21)
    assert sorted(len(p) for p in prompts) == [1, 5, 5, 5, 5]
    asked_before = len(server.requests)
    again = ask_loglikelihoods(pairs, config, "ngram", tmp_path / "j.jsonl")
    assert len(server.requests) == asked_before and again.asked == 0 and again.found == first.found


def test_a_killed_run_resumes_asking_only_what_is_missing(server, tmp_path, completions_config):
    journal = tmp_path / "j.jsonl"
    pairs = [(f"Context {i}", " end") for i in range(6)]
    ask_loglikelihoods(pairs[:4], completions_config(), "ngram", journal)
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:2]) + "\n" + lines[2][:15])  # killed while writing the third answer
    resumed = ask_loglikelihoods(pairs, completions_config(batch_size=100), "ngram", journal)
    assert resumed.asked == 4 and len(resumed.found) == 6
    assert len(_completion_prompts(server)[-1]) == 4


def test_another_max_length_or_model_asks_again(server, tmp_path, completions_config):
    journal = tmp_path / "j.jsonl"
    ask_loglikelihoods([("The", " cat")], completions_config(), "ngram", journal)
    assert ask_loglikelihoods([("The", " cat")], completions_config(max_length=100), "ngram", journal).asked == 1
