"""The loglikelihood kind through `evalpipe run`: ARC-Challenge's published file asked of the n-gram server (each
choice's loglikelihood the model's own, a rerun asks nothing), a server that ignores echo failing the dataset in one
line, MMLU 5-shot from a predictions file with its groups, and non-ASCII choices scored by characters and bytes."""
import json
import math
import shutil
from pathlib import Path

import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.ngram_server import BOS, NgramServer
from tests.pipeline.workspace import run, write_jsonl


def _toml(folder, task, url=None, extra=""):
    generate = f'[generate]\nprotocol = "completions"\nurl = "{url}"\nmodels = ["ngram"]\nconcurrency = 3\n' \
        if url else ""
    (folder / "dataset.toml").write_text(f'kind = "loglikelihood"\ntask = "{task}"\n{extra}{generate}')


def _model_sum(model, context, continuation):
    tokens = model.encode(context)
    history, total = [BOS, BOS, *tokens], 0.0
    for token in model.encode(context + continuation)[len(tokens):]:
        total += model.logprob(history[-2], history[-1], token)
        history.append(token)
    return total


def test_arc_challenge_asked_of_a_completions_server(tmp_path, real_data):
    folder = tmp_path / "inputs" / "arc"
    folder.mkdir(parents=True)
    shutil.copy(real_data / "base" / "arc_challenge_validation.jsonl", folder / "questions.jsonl")
    with NgramServer() as server:
        _toml(folder, "arc_challenge", server.url)
        assert run(tmp_path) == 0
        asked = len(server.requests)
        outputs = tmp_path / "outputs" / "arc"
        b1, b4 = read_columns(outputs / "B1_questions.json"), read_columns(outputs / "ngram" / "B4_matches.json")
        assert len(b4["id"]) == 299 and b4["id"][0] == "Mercury_SC_407695"
        for index in range(5):
            expected = [_model_sum(server.model, b1["question"][index], c) for c in b1["continuations"][index]]
            assert b4["loglikelihoods"][index] == pytest.approx(expected, abs=1e-9)
        assert {"greedy", "chosen", "chosen_norm", "correct", "correct_norm"} <= set(b4)
        report = read_artifact_json(outputs / "B6_report.json")["report"]
        found = report["models"]["ngram"]
        assert found["rows"] == 299 and found["acc"] == pytest.approx(sum(b4["correct"]) / 299)
        assert found["acc_norm"] == pytest.approx(sum(b4["correct_norm"]) / 299)
        interval = report["intervals"]["ngram"]["acc"]
        assert interval["low"] < found["acc"] < interval["high"]
        generation = read_artifact_json(outputs / "ngram" / "B2_predictions.json")["header"]["generation"]
        assert generation["pairs"] == sum(map(len, b1["continuations"])) and generation["truncated"] == 0
        assert run(tmp_path, "--force") == 0
        assert len(server.requests) == asked  # every answer journaled: nothing asked again


def test_a_server_that_ignores_echo_fails_the_dataset_in_one_line(tmp_path, capsys):
    folder = tmp_path / "inputs" / "arc"
    write_jsonl(folder / "questions.jsonl", [{"id": "q1", "question": "Hot?", "answerKey": "A",
                                              "choices": {"text": ["fire", "ice"], "label": ["A", "B"]}}])
    with NgramServer() as server:
        server.ignore_echo = True
        _toml(folder, "arc_easy", server.url)
        assert run(tmp_path) != 0
    err = capsys.readouterr().err
    assert "arc:" in err and "echo ignored" in err
    assert not (tmp_path / "outputs" / "arc" / "B6_report.json").exists()


def test_mmlu_five_shot_from_a_predictions_file_with_its_groups(tmp_path, real_data):
    folder = tmp_path / "inputs" / "mmlu"
    folder.mkdir(parents=True)
    shutil.copy(real_data / "base" / "mmlu" / "test.jsonl", folder / "questions.jsonl")
    shutil.copy(real_data / "base" / "mmlu" / "dev.jsonl", folder / "dev.jsonl")
    _toml(folder, "mmlu", extra='[params]\nnum_fewshot = 5\nfewshot_file = "dev.jsonl"\n')
    golds = [json.loads(line)["answer"] for line in (folder / "questions.jsonl").read_text().split("\n") if line]
    rows = []
    for position, gold in enumerate(golds):  # right on every even row, the next letter on odd rows
        picked = gold if position % 2 == 0 else (gold + 1) % 4
        rows.append({"id": str(position), "loglikelihoods": [-1.0 if i == picked else -3.0 for i in range(4)]})
    write_jsonl(folder / "predictions" / "base.jsonl", rows)
    assert run(tmp_path) == 0
    found = read_artifact_json(tmp_path / "outputs" / "mmlu" / "B6_report.json")["report"]["models"]["base"]
    assert found["rows"] == 14042 and found["acc"] == pytest.approx(7021 / 14042)
    assert set(found["by_group"]) == {"mmlu_stem", "mmlu_humanities", "mmlu_social_sciences", "mmlu_other"}
    assert len(found["by_subject"]) == 57 and sum(g["rows"] for g in found["by_group"].values()) == 14042
    b1 = read_columns(tmp_path / "outputs" / "mmlu" / "B1_questions.json")
    assert b1["question"][0].startswith("The following are multiple choice questions (with answers) about abstract "
                                        "algebra.\n\nFind all c in Z_3")


def test_non_ascii_choices_by_characters_and_by_bytes(tmp_path):
    folder = tmp_path / "inputs" / "cafe"
    write_jsonl(folder / "questions.jsonl", [{"question": "Où?", "choices": ["éé", "abc"], "gold": 1}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "0", "loglikelihoods": [-2.0, -2.9]}])
    (folder / "dataset.toml").write_text('kind = "loglikelihood"\n[params]\ncontext_template = "{question}"\n'
                                         'acc_bytes = true\n')
    assert run(tmp_path) == 0
    found = read_artifact_json(tmp_path / "outputs" / "cafe" / "B6_report.json")["report"]["models"]["m"]
    assert (found["acc"], found["acc_norm"], found["acc_bytes"]) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize(("kind", "protocol", "said"), [
    ("loglikelihood", "openai", 'is asked of a completions endpoint: [generate] protocol = "completions"'),
    ("qa", "completions", 'asks a chat server; [generate] protocol "completions" is for kind "loglikelihood"')])
def test_the_completions_protocol_and_the_kind_go_together(tmp_path, capsys, kind, protocol, said):
    folder = tmp_path / "inputs" / "d"
    write_jsonl(folder / "questions.jsonl", [{"id": "1", "question": "q", "choices": ["a", "b"], "gold": 0,
                                              "answer": "a"}])
    (folder / "dataset.toml").write_text(f'kind = "{kind}"\n[generate]\nprotocol = "{protocol}"\n'
                                         'url = "http://127.0.0.1:9"\nmodels = ["m"]\n')
    assert run(tmp_path) != 0
    assert said in capsys.readouterr().err


def test_an_edited_fewshot_file_rebuilds_the_contexts(tmp_path):
    folder = tmp_path / "inputs" / "mmlu"
    row = {"subject": "anatomy", "choices": ["a", "b", "c", "d"], "answer": 2}
    write_jsonl(folder / "questions.jsonl", [{**row, "question": "Which bone?"}])
    write_jsonl(folder / "dev.jsonl", [{**row, "question": "First shot?"}])
    write_jsonl(folder / "predictions" / "m.jsonl", [{"id": "0", "loglikelihoods": [-4.0, -3.0, -1.0, -2.0]}])
    _toml(folder, "mmlu", extra='[params]\nnum_fewshot = 1\nfewshot_file = "dev.jsonl"\n')
    assert run(tmp_path) == 0
    b1 = tmp_path / "outputs" / "mmlu" / "B1_questions.json"
    assert "First shot?\nA. a\nB. b\nC. c\nD. d\nAnswer: C\n\nWhich bone?" in read_columns(b1)["question"][0]
    write_jsonl(folder / "dev.jsonl", [{**row, "question": "Edited shot?"}])
    assert run(tmp_path) == 0
    assert "Edited shot?" in read_columns(b1)["question"][0]


def test_a_text_corpus_asked_for_its_rolling_loglikelihood_gives_lm_evals_perplexities(tmp_path):
    from tests.stages.kinds.loglikelihood.test_loglikelihood_rolling import CAFE, LONG, rolling_sum

    folder = tmp_path / "inputs" / "corpus"
    texts = {"long": LONG, "cafe": CAFE, "short": "The mat.\n\n A"}
    write_jsonl(folder / "questions.jsonl", [{"id": key, "body": text} for key, text in texts.items()]
                + [{"id": "empty", "body": ""}])
    with NgramServer() as server:
        (folder / "dataset.toml").write_text(
            'kind = "loglikelihood"\ntask = "rolling"\n[params]\ntext_field = "body"\n[generate]\n'
            f'protocol = "completions"\nurl = "{server.url}"\nmodels = ["ngram"]\nmax_length = 24\n')
        assert run(tmp_path) == 0
        model = server.model
    assert len(model.encode(LONG)) > 3 * 22  # several windows of 22 tokens
    total = sum(rolling_sum(model, text, 24) for text in texts.values())
    words = 58 + 7 + 3  # LONG: 57 words and its trailing blank (re.split counts it); CAFE 7; "The mat.\n\n A" 3
    size = sum(len(text.encode()) for text in texts.values())
    outputs = tmp_path / "outputs" / "corpus"
    found = read_artifact_json(outputs / "B6_report.json")["report"]["models"]["ngram"]
    assert (found["rows"], found["words"], found["bytes"]) == (3, words, size)
    assert found["loglikelihood"] == pytest.approx(total, abs=1e-9)
    assert found["word_perplexity"] == pytest.approx(math.exp(-total / words))
    assert found["byte_perplexity"] == pytest.approx(math.exp(-total / size))
    assert found["bits_per_byte"] == pytest.approx(-total / size / math.log(2))
    b1 = read_artifact_json(outputs / "B1_questions.json")
    assert "body is not a non-empty text" in json.dumps(b1)


def test_rolling_sums_from_predictions_files_rank_models_by_word_perplexity(tmp_path):
    folder = tmp_path / "inputs" / "corpus"
    write_jsonl(folder / "questions.jsonl", [{"text": "one two three"}, {"text": "naïve café"}])  # 3 + 2 words
    write_jsonl(folder / "predictions" / "good.jsonl", [{"id": "0", "loglikelihoods": [-6.0]},
                                                        {"id": "1", "loglikelihoods": [-4.0]}])
    write_jsonl(folder / "predictions" / "poor.jsonl", [{"id": "0", "loglikelihoods": [-20.0]},
                                                        {"id": "1", "loglikelihoods": [-4.0, -1.0]}])
    (folder / "dataset.toml").write_text('kind = "loglikelihood"\ntask = "rolling"\n')
    assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "corpus" / "B6_report.json")["report"]
    good, poor = report["models"]["good"], report["models"]["poor"]
    assert (good["words"], good["bytes"]) == (5, 13 + 12)
    assert good["word_perplexity"] == pytest.approx(math.exp(10 / 5))
    assert good["bits_per_byte"] == pytest.approx(10 / 25 / math.log(2))
    assert poor["answer_rate"] == 0.5 and poor["words"] == 3  # two sums for one document: not scored
    assert poor["word_perplexity"] == pytest.approx(math.exp(20 / 3))
    assert report["comparison"] == {"primary_metric": "word_perplexity", "ranking": ["good", "poor"]}
    assert report["task"] == "rolling"  # the task named, so what reads the report is bound to it (report_kind)
    text = (tmp_path / "outputs" / "corpus" / "B6_report.txt").read_text(encoding="utf-8")
    assert "word_perplexity" in text and "acc_norm" not in text


def test_a_tokenizer_folder_named_in_dataset_toml_tokenizes_instead_of_the_server(tmp_path, capsys):
    tokenizers = pytest.importorskip("tokenizers")
    from tests.stages.kinds.loglikelihood.tokenizer_folder import make_tokenizer_folder

    folder = tmp_path / "inputs" / "arc"
    write_jsonl(folder / "questions.jsonl", [{"id": "q1", "question": "Which one is a cat?", "answerKey": "B",
                                              "choices": {"text": ["the mat", "the cat"], "label": ["A", "B"]}}])
    make_tokenizer_folder(folder / "tok")
    own = tokenizers.Tokenizer.from_file(str(folder / "tok" / "tokenizer.json"))
    broken = tmp_path / "inputs" / "broken"
    write_jsonl(broken / "questions.jsonl", [{"id": "q1", "question": "Hot?", "answerKey": "A",
                                              "choices": {"text": ["fire", "ice"], "label": ["A", "B"]}}])
    with NgramServer() as server:
        _toml(folder, "arc_easy", server.url + '"\ntokenizer = "tok')
        _toml(broken, "arc_easy", server.url + '"\ntokenizer = "no-such-folder')
        assert run(tmp_path) != 0  # the broken dataset fails; arc runs
        assert all(r["path"] == "/v1/completions" for r in server.requests)
        context = "Question: Which one is a cat?\nAnswer:"
        b4 = read_columns(tmp_path / "outputs" / "arc" / "ngram" / "B4_matches.json")
        expected = []
        for choice in ("the mat", "the cat"):
            ids = own.encode(context, add_special_tokens=False).ids
            whole = own.encode(f"{context} {choice}", add_special_tokens=False).ids
            history, total = [BOS, BOS, *ids], 0.0
            for token in whole[len(ids):]:
                total += server.model.logprob(history[-2], history[-1], token)
                history.append(token)
            expected.append(total)
        assert b4["loglikelihoods"][0] == pytest.approx(expected, abs=1e-12)
    said = [line for line in capsys.readouterr().err.splitlines() if "no-such-folder" in line]
    assert len(said) == 1 and "broken" in said[0] and "tokenizer" in said[0]
    assert not (tmp_path / "outputs" / "broken" / "B6_report.json").exists()


def test_winogrande_asks_each_options_own_context_with_the_shared_continuation(tmp_path):
    folder = tmp_path / "inputs" / "winogrande"
    folder.mkdir(parents=True)
    shutil.copy(Path(__file__).parents[2] / "stages" / "kinds" / "loglikelihood" / "winogrande_validation.jsonl",
                folder / "questions.jsonl")
    with NgramServer() as server:
        _toml(folder, "winogrande", server.url)
        assert run(tmp_path) == 0
        b4 = read_columns(tmp_path / "outputs" / "winogrande" / "ngram" / "B4_matches.json")
        assert len(b4["id"]) == 11
        first = ["The trophy would not fit in the brown suitcase because the trophy",
                 "The trophy would not fit in the brown suitcase because the suitcase"]
        expected = [_model_sum(server.model, context, " was too big.") for context in first]
        assert b4["loglikelihoods"][0] == pytest.approx(expected, abs=1e-12)
        assert b4["gold"][:3] == [0, 1, 1]
    report = read_artifact_json(tmp_path / "outputs" / "winogrande" / "B6_report.json")["report"]
    assert report["models"]["ngram"]["acc"] == pytest.approx(sum(b4["correct"]) / 11)


def test_a_server_that_is_down_leaves_every_item_not_scored_until_a_rerun_asks_them(tmp_path, capsys, killed_server):
    """#78: loglikelihoods never obtained are not scored (not wrong): the model is not published, the last line says
    to restart the server; the rerun asks them and publishes."""
    folder = tmp_path / "inputs" / "cafe"
    write_jsonl(folder / "questions.jsonl", [{"question": f"Où {i}?", "choices": ["éé", "abc"], "gold": 1}
                                             for i in range(6)])
    gone = killed_server()  # its port is closed
    (folder / "dataset.toml").write_text(
        f'kind = "loglikelihood"\n[params]\ncontext_template = "{{question}}"\n[generate]\nprotocol = "completions"\n'
        f'url = "{gone.url}"\nmodels = ["ngram"]\nretries = 0\n')
    assert run(tmp_path) == 1
    err = capsys.readouterr().err
    assert ("model ngram: not published: 6 of 6 items not scored: the model server did not answer (connection "
            "refused) × 6") in err
    assert err.splitlines()[-1].startswith("evalpipe: what to do: restart the model server and rerun")
    with NgramServer() as server:
        toml = folder / "dataset.toml"
        toml.write_text(toml.read_text().replace(gone.url, server.url))
        assert run(tmp_path) == 0
    report = read_artifact_json(tmp_path / "outputs" / "cafe" / "B6_report.json")["report"]
    assert "unscored" not in report and report["models"]["ngram"]["rows"] == 6
