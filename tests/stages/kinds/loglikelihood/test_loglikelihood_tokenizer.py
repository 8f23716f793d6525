"""A tokenizer from a local folder ([generate] tokenizer): each pair tokenized by the folder's tokenizer.json as
lm-eval's huggingface backend tokenizes it (no special tokens, the context's trailing spaces moved to the
continuation, an empty context as the BOS token — id 0 here), the token ids sent equal to the tokenizer's own
encoding, /tokenize never asked; rolling windows from its tokens; a folder that is missing or holds no readable
tokenizer refused in one line."""
import json

import pytest

from stages.chat.local_tokenizer import LocalTokenizer, load_tokenizer
from stages.kinds.loglikelihood.loglikelihoods import ask_loglikelihoods
from stages.kinds.loglikelihood.rolling import ask_rolling, rolling_windows
from tests.pipeline.ngram_server import BOS
from tests.stages.kinds.loglikelihood.tokenizer_folder import make_tokenizer_folder

tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture
def folder(tmp_path):
    return make_tokenizer_folder(tmp_path / "tokenizer")


@pytest.fixture
def folder_config(completions_config, folder):
    """A completions [generate] that tokenizes with the test's tokenizer folder."""
    return lambda **extra: completions_config(tokenizer=str(folder), **extra)


def _model_sum(model, context, continuation):
    history, total = [BOS, BOS, *context], 0.0
    for token in continuation:
        total += model.logprob(history[-2], history[-1], token)
        history.append(token)
    return total


def _sent(server):
    return [prompt for r in server.requests if r["path"] == "/v1/completions" for prompt in r["body"]["prompt"]]


def test_the_token_ids_sent_are_the_folders_own_encoding(server, folder, tmp_path, folder_config):
    own = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    pairs = [("The cat sat on the", " mat."), ("Question: Which one?\nAnswer:", " cellular telephone"),
             ("Élan, café, naïve:", " 東京 is a city.")]
    found = ask_loglikelihoods(pairs, folder_config(batch_size=1), "ngram", tmp_path / "j.jsonl")
    assert all(r["path"] == "/v1/completions" for r in server.requests)  # neither /tokenize nor /tokenizer_info
    for (context, continuation), sent in zip(pairs, _sent(server)):
        whole = own.encode(context + continuation, add_special_tokens=False).ids
        context_ids = own.encode(context, add_special_tokens=False).ids
        assert sent == whole and whole[:len(context_ids)] == context_ids
        assert own.decode(sent) == context + continuation
        assert found.found[(context, continuation)][0] == pytest.approx(
            _model_sum(server.model, context_ids, whole[len(context_ids):]), abs=1e-12)


def test_a_trailing_space_moves_to_the_continuation_and_an_empty_context_is_bos_id_0(server, folder, tmp_path,
                                                                                   folder_config):
    own = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    assert own.token_to_id("<s>") == 0
    pairs = [("The cat sat on the ", "mat."), ("", "The cat")]
    found = ask_loglikelihoods(pairs, folder_config(batch_size=1), "ngram", tmp_path / "j.jsonl")
    spaced, empty = _sent(server)
    assert spaced == own.encode("The cat sat on the mat.", add_special_tokens=False).ids
    assert empty == [0, *own.encode("The cat", add_special_tokens=False).ids]
    cat = own.encode("The cat", add_special_tokens=False).ids
    assert found.found[("", "The cat")][0] == pytest.approx(_model_sum(server.model, [0], cat), abs=1e-12)


def test_answers_asked_with_the_server_tokenizer_are_not_reused_for_the_folder(server, tmp_path, completions_config,
                                                                              folder_config):
    journal = tmp_path / "j.jsonl"
    plain = completions_config()
    by_server = ask_loglikelihoods([("The cat sat on the", " mat.")], plain, "ngram", journal)
    by_folder = ask_loglikelihoods([("The cat sat on the", " mat.")], folder_config(), "ngram", journal)
    assert by_folder.asked == 1 and by_folder.found != by_server.found
    again = ask_loglikelihoods([("The cat sat on the", " mat.")], folder_config(), "ngram", journal)
    assert again.asked == 0 and again.found == by_folder.found


def test_rolling_windows_come_from_the_folders_tokens(server, folder, tmp_path, folder_config):
    own = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    text = "The cat sat on the mat. A man is sitting on a roof and he starts pulling up roofing on the roof. " * 2
    found = ask_rolling([text], folder_config(max_length=12), "ngram", tmp_path / "j.jsonl")
    tokens = own.encode(text, add_special_tokens=False).ids
    windows = rolling_windows(tokens, 0, 12)
    assert [w[0] + w[1] for w in windows] == _sent(server)
    assert found.found[text] == pytest.approx(sum(_model_sum(server.model, c, t) for c, t in windows), abs=1e-9)


def test_eos_stands_in_when_the_folder_names_no_bos(tmp_path):
    folder = make_tokenizer_folder(tmp_path / "t")
    (folder / "tokenizer_config.json").write_text(json.dumps({"eos_token": {"content": "</s>"}}))
    assert LocalTokenizer(folder).prefix_token() == 1


@pytest.mark.parametrize("damage", ["missing", "no_tokenizer_json", "not_json", "not_a_tokenizer", "bad_config"])
def test_a_missing_or_unreadable_tokenizer_is_refused_in_one_line(damage, tmp_path):
    folder = make_tokenizer_folder(tmp_path / "t") if damage != "missing" else tmp_path / "nowhere"
    if damage == "no_tokenizer_json":
        (folder / "tokenizer.json").unlink()
    elif damage == "not_json":
        (folder / "tokenizer.json").write_text("{ not json")
    elif damage == "not_a_tokenizer":
        (folder / "tokenizer.json").write_text(json.dumps({"model": {"type": "Nothing"}}))
    elif damage == "bad_config":
        (folder / "tokenizer_config.json").write_text("[1, 2")
    with pytest.raises(ValueError) as raised:
        load_tokenizer(folder)
    said = str(raised.value)
    assert "\n" not in said and str(folder) in said
