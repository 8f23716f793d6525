"""CMRC 2018 dev (3,219 Chinese questions) with predictions of our own, scored in qa mode "cmrc" and by an
independent implementation of the published rules of the official scorer (cmrc2018_evaluate.py)."""
import json
import re

import pytest
from nltk.tokenize import NLTKWordTokenizer

from pipeline.cli import main
from stages.io.artifacts import read_artifact_json

PUNCTUATION = ["-", ":", "_", "*", "^", "/", "\\", "~", "`", "+", "=", "，", "。", "：", "？", "！", "“", "”", "；",
               "’", "《", "》", "……", "·", "、", "「", "」", "（", "）", "－", "～", "『", "』"]
TOKENIZER = NLTKWordTokenizer()


def reference_segments(text, drop_punctuation):
    """Each CJK character and listed mark a token; other runs word-tokenized; with drop, listed marks vanish."""
    text = str(text).lower().strip()
    out, run = [], ""
    for char in text:
        if drop_punctuation and char in PUNCTUATION:
            continue
        if re.search("[\u4e00-\u9fa5]", char) or char in PUNCTUATION:
            if run != "":
                out.extend(TOKENIZER.tokenize(run))
                run = ""
            out.append(char)
        else:
            run += char
    if run != "":
        out.extend(TOKENIZER.tokenize(run))
    return out


def reference_lcs(first, second):
    table = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    best = 0
    for i in range(len(first)):
        for j in range(len(second)):
            if first[i] == second[j]:
                table[i + 1][j + 1] = table[i][j] + 1
                best = max(best, table[i + 1][j + 1])
    return best


def reference_scores(answers, prediction):
    stripped = "".join(c for c in str(prediction).lower().strip() if c not in PUNCTUATION)
    em = float(any("".join(c for c in str(a).lower().strip() if c not in PUNCTUATION) == stripped for a in answers))
    f1s = []
    for answer in answers:
        gold, predicted = reference_segments(answer, True), reference_segments(prediction, True)
        common = reference_lcs(gold, predicted)
        if common == 0:
            f1s.append(0.0)
            continue
        precision, recall = common / len(predicted), common / len(gold)
        f1s.append(2 * precision * recall / (precision + recall))
    return em, max(f1s)


def our_predictions(dev):
    """Exact, truncated, padded with punctuation and words, mixed Chinese/English, reordered, unanswered."""
    predictions = {}
    questions = [qa for article in dev["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
    for index, qa in enumerate(questions):
        answer = qa["answers"][0]["text"]
        form = index % 7
        if form == 0:
            predictions[qa["id"]] = answer
        elif form == 1:
            predictions[qa["id"]] = answer[: max(1, len(answer) // 2)]
        elif form == 2:
            predictions[qa["id"]] = f"答案是：「{answer}」。"
        elif form == 3:
            predictions[qa["id"]] = f"{answer} is the answer, 对吧？"
        elif form == 4:
            predictions[qa["id"]] = answer[::-1]
        elif form == 5:
            predictions[qa["id"]] = f"The Answer: {answer.upper()}-2018"
    return questions, predictions


def test_cmrc2018_dev_in_cmrc_mode_equals_the_published_rules(tmp_path, real_data):
    dev = json.loads((real_data / "cmrc2018/cmrc2018_dev.json").read_text(encoding="utf-8"))
    questions, predictions = our_predictions(dev)
    folder = tmp_path / "inputs" / "cmrc"
    (folder / "predictions").mkdir(parents=True)
    (folder / "questions.json").symlink_to(real_data / "cmrc2018/cmrc2018_dev.json")
    (folder / "predictions" / "ours.json").write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
    (folder / "dataset.toml").write_text('kind = "qa"\n[params]\nmode = "cmrc"\n')
    assert main(["run", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]) == 0

    em = f1 = 0.0
    for qa in questions:
        if qa["id"] in predictions:
            answers = [a["text"] for a in qa["answers"]]
            scores = reference_scores(answers, predictions[qa["id"]])
            em, f1 = em + scores[0], f1 + scores[1]
    metrics = read_artifact_json(tmp_path / "outputs/cmrc/ours/B5_component_scores.json")["metrics"]
    assert metrics["rows"] == len(questions) == 3219
    assert metrics["exact_match"] == pytest.approx(em / len(questions), abs=1e-9)
    assert metrics["f1"] == pytest.approx(f1 / len(questions), abs=1e-9)
    assert 0.1 < metrics["exact_match"] < metrics["f1"] < 0.9  # the forms above really differ in score


@pytest.mark.parametrize(("prediction", "golds", "em", "f1"), [
    ("曹雪芹", ["曹雪芹。"], 1.0, 1.0),                    # listed punctuation ignored by both
    ("京北", ["北京"], 0.0, 0.5),                          # a contiguous run, not a bag of tokens (cjk mode: 1.0)
    ("北京大学", ["北京", "大学"], 0.0, 2 / 3),             # best over answers: run 2 of 4 and 2
    ("the cao xueqin", ["Cao Xueqin"], 0.0, 0.8),          # English run word-tokenized, lower-cased
    ("红楼梦…", ["红楼梦"], 0.0, 6 / 7),                    # "…" alone is not in the list ("……" is two characters)
])
def test_cmrc_mode_on_known_pairs(prediction, golds, em, f1):
    from stages import qa_em_f1

    assert qa_em_f1(prediction, golds, mode="cmrc") == pytest.approx((em, f1))
