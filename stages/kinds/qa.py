"""Open QA kind: exact match and token F1 against the best of several gold answers."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.param_rules import at_least, one_of, within
from ..core.progress import track
from ..core.records import Columns
from ..core.stats import Stats, share
from ..core.text_table import format_table, percent
from ..text.cmrc import cmrc_em_f1
from ..text.normalize import NORMALIZERS, QA_MODES, choose_mode
from .base import SHARD_ROWS, Kind, rank_models, register_kind

_HOTPOT_SPECIAL = frozenset({"yes", "no", "noanswer"})


def token_f1(prediction: str, gold: str, mode: str = "squad") -> float:
    """Token-overlap F1 of two normalized answers (multiset overlap); HotpotQA's yes/no/noanswer rule in 'hotpot'."""
    if mode == "hotpot" and prediction != gold and (prediction in _HOTPOT_SPECIAL or gold in _HOTPOT_SPECIAL):
        return 0.0
    prediction_tokens = prediction.split()
    gold_tokens = gold.split()
    same = _multiset_overlap(prediction_tokens, gold_tokens)
    if same == 0:
        return 0.0
    precision = 1.0 * same / len(prediction_tokens)
    recall = 1.0 * same / len(gold_tokens)
    return (2 * precision * recall) / (precision + recall)


def _multiset_overlap(first: list[str], second: list[str]) -> int:
    """Size of the multiset intersection (what sum((Counter(a) & Counter(b)).values()) computes)."""
    if not first or not second or set(first).isdisjoint(second):
        return 0
    remaining = Counter(second)
    same = 0
    for token in first:
        count = remaining.get(token, 0)
        if count:
            remaining[token] = count - 1
            same += 1
    return same


def match_normalized(prediction: str, golds: list[str], mode: str) -> tuple[float, float, int]:
    """(em, f1, index of the gold with the best F1) for a normalized prediction against normalized golds."""
    if mode == "cmrc":
        return cmrc_em_f1(prediction, golds)
    em = 1.0 if prediction in golds else 0.0
    best_f1, best_index = 0.0, 0
    seen: set[str] = set()
    for index, gold in enumerate(golds):
        if gold in seen:
            continue
        seen.add(gold)
        f1 = 1.0 if prediction == gold and prediction else token_f1(prediction, gold, mode)
        if f1 > best_f1:
            best_f1, best_index = f1, index
    if em and best_f1 < 1.0:
        best_index = golds.index(prediction)
    return em, best_f1, best_index


def qa_em_f1(prediction: str | None, golds: list[str], mode: str = "squad") -> tuple[float, float]:
    """(EM, F1) of one prediction, each the max over gold answers; a missing prediction scores (0, 0)."""
    if mode not in QA_MODES:
        raise ValueError(f"unknown QA mode {mode!r} (use one of {', '.join(QA_MODES)})")
    if prediction is None or not golds:
        return 0.0, 0.0
    normalize = NORMALIZERS[mode]
    em, f1, _ = match_normalized(normalize(prediction), [normalize(gold) for gold in golds], mode)
    return em, f1


@register_kind("qa")
class OpenQA(Kind):
    """Open QA: EM and F1 per SQuAD v1.1 (or HotpotQA / CJK modes)."""
    paired_metrics = {"exact_match": "binary", "f1": "mean"}

    defaults = {"mode": "auto", "partial_f1_threshold": 0.5, "shard_rows": SHARD_ROWS}
    stage_params = {"B3": ("mode",), "B4": ("partial_f1_threshold",)}
    prompt_templates = {
        "en": "Answer the question with a short phrase. Reply with the answer only.\n\nQuestion: {question}\nAnswer:",
        "zh": "请用简短的词语回答下面的问题，只给出答案。\n\n问题：{question}\n答案：",
    }
    param_rules = {"mode": one_of("auto", *QA_MODES), "partial_f1_threshold": within(0, 1),
                   "shard_rows": at_least(1, integer=True)}
    shardable = True

    def normalize(self, joined: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        mode = params["mode"]
        modes = [
            choose_mode(golds, question) if mode == "auto" else mode
            for golds, question in zip(joined["golds"], joined["question"])
        ]
        predictions, golds_norm = [], []
        rows = zip(modes, joined["prediction"], joined["golds"])
        for row_mode, prediction, golds in track(rows, "normalizing answers", len(modes)):
            normalize = NORMALIZERS[row_mode]
            predictions.append(None if prediction is None else normalize(prediction))
            unique = {gold: normalize(gold) for gold in dict.fromkeys(golds)}
            golds_norm.append([unique[gold] for gold in golds])
        columns = {"id": joined["id"], "mode": modes, "prediction_norm": predictions, "golds_norm": golds_norm}
        return columns, {"mode": mode, "rows_by_mode": dict(Counter(modes))}

    def match(self, normalized: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        threshold = params["partial_f1_threshold"]
        ems, f1s, best, labels = [], [], [], []
        rows = zip(normalized["mode"], normalized["prediction_norm"], normalized["golds_norm"])
        for mode, prediction, golds in track(rows, "matching answers", len(normalized["id"])):
            if prediction is None:
                em, f1, index, label = 0.0, 0.0, None, "missing"
            else:
                em, f1, index = match_normalized(prediction, golds, mode)
                label = "correct" if em else "partial" if f1 >= threshold else "wrong"
            ems.append(em)
            f1s.append(f1)
            best.append(index)
            labels.append(label)
        columns = {"id": normalized["id"], "best_gold": best, "exact_match": ems, "f1": f1s, "label": labels}
        return columns, {"labels": dict(Counter(labels))}

    def score(self, matched: Columns, params: dict[str, Any]) -> tuple[Columns, dict[str, Any]]:
        columns = {"id": matched["id"], "exact_match": matched["exact_match"], "f1": matched["f1"]}
        return columns, self.metrics_from_stats(self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        return {"rows": len(matched["id"]), "exact_match": sum(matched["exact_match"]), "f1": sum(matched["f1"]),
                "labels": dict(Counter(matched["label"]))}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        rows = stats["rows"]
        return {"rows": rows, "exact_match": share(stats["exact_match"], rows), "f1": share(stats["f1"], rows),
                "labels": dict(stats["labels"])}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        return matched.get("label", "missing"), f"F1 {matched.get('f1', 0.0):.2f} against gold #{matched.get('best_gold')}"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
        return rank_models(metrics_by_model, "f1")

    def render(self, dataset: str, report: dict[str, Any]) -> str:
        rows = [
            [model, str(m["rows"]), percent(m["exact_match"]), percent(m["f1"]), str(m["labels"].get("missing", 0))]
            for model, m in report["models"].items()
        ]
        return format_table(["model", "样本数", "Exact Match (EM)", "F1 Score", "missing"], rows)
