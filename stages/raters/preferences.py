"""People's preferences between two answers (labels/<rater>.csv rows `id, model_a, model_b, winner`) against the
judge's pairwise outcomes, as LLMBar, PandaLM and MT-Bench measure a judge: accuracy over the three outcomes, Cohen's
κ, macro precision / recall / F1, the confusion matrix, agreement where neither says tie, and the accuracy of each
order taken alone and their mean; among the raters, κ for every pair, Krippendorff's α and the majority's outcomes."""
from __future__ import annotations

import csv
import io
from itertools import combinations
from typing import Any

from ..core.records import Reject
from .files import LabelsFiles, is_preference_file
from .judge_agreement import MAJORITY, compare_labels, krippendorff_alpha, most_common_label
from .sheet import strip_formula_guard

OUTCOMES = ("first", "tie", "second")
PREFERENCE_COLUMNS = ("id", "model_a", "model_b", "winner")
PairKey = tuple[str, str, str]  # (first model, second model, item id), the pair oriented as B5_pairwise orients it


def read_preferences(data: bytes, source: str, pairs: set[tuple[str, str]], items: set[str],
                     ) -> tuple[dict[PairKey, str], list[Reject]]:
    """One rater's preferences, each as the outcome for the first model of its pair as the judge compared it
    ("first", "tie", "second"); rows naming no compared pair, no item of the dataset, or a winner that is neither
    model nor `tie` (any case) are set aside with their line."""
    reader = csv.DictReader(io.StringIO(data.decode("utf-8-sig", errors="replace"), newline=""))
    found: dict[PairKey, str] = {}
    rejects = []
    for row in reader:
        line = reader.line_num
        cell = {k.strip(): strip_formula_guard(v or "").strip() for k, v in row.items() if k}
        item, a, b, winner = (cell.get(name, "") for name in PREFERENCE_COLUMNS)
        if not winner:
            continue
        if item not in items:
            rejects.append(Reject(source, line, f"no item {item or '(no id)'} among the dataset's questions"))
            continue
        first, second = (a, b) if (a, b) in pairs else (b, a) if (b, a) in pairs else (None, None)
        if first is None:
            rejects.append(Reject(source, line, f"the judge compared no pair {a or '(empty)'} / {b or '(empty)'}"))
            continue
        chosen = {first.casefold(): "first", second.casefold(): "second", "tie": "tie"}.get(winner.casefold())
        if chosen is None:
            rejects.append(Reject(source, line, f"winner {winner!r} is neither {a}, {b} nor tie"))
            continue
        found[(first, second, item)] = chosen
    return found, rejects


def macro_scores(judge: list[str], people: list[str]) -> dict[str, float | None]:
    """Macro precision, recall and F1 of the judge's outcomes against people's, over the outcomes either gives (as
    scikit-learn's precision_recall_fscore_support(people, judge, average="macro", zero_division=0))."""
    present = sorted(set(judge) | set(people))
    if not present:
        return {"precision": None, "recall": None, "f1": None}
    precisions, recalls, f1s = [], [], []
    for outcome in present:
        hits = sum(j == p == outcome for j, p in zip(judge, people))
        said, true = judge.count(outcome), people.count(outcome)
        precision = hits / said if said else 0.0
        recall = hits / true if true else 0.0
        precisions.append(precision)
        recalls.append(recall)
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return {name: sum(values) / len(present) for name, values in (("precision", precisions), ("recall", recalls),
                                                                    ("f1", f1s))}


def judge_against(judge: dict[PairKey, str], by_order: tuple[dict[PairKey, str], dict[PairKey, str]],
                  people: dict[PairKey, str]) -> dict[str, Any]:
    """The judge's outcomes against one set of people's (a rater's, or the majority's) on the items both have."""
    keys = sorted(key for key in people if key in judge)
    judged, said = [judge[k] for k in keys], [people[k] for k in keys]
    found = compare_labels(judged, said, "outcome")
    decisive = [k for k in keys if judge[k] != "tie" and people[k] != "tie"]
    orders = []
    for outcomes in by_order:
        asked = [k for k in people if outcomes.get(k) is not None]
        orders.append({"n": len(asked), "accuracy": sum(outcomes[k] == people[k] for k in asked) / len(asked)
                       if asked else None})
    accuracies = [order["accuracy"] for order in orders if order["accuracy"] is not None]
    return {**found, "accuracy": found["agreement"], **macro_scores(judged, said),
            "without_ties": {"n": len(decisive), "agreement": sum(judge[k] == people[k] for k in decisive) /
                             len(decisive) if decisive else None},
            "orders": {"first_shown_first": orders[0], "second_shown_first": orders[1],
                       "mean_accuracy": sum(accuracies) / len(accuracies) if accuracies else None}}


def preference_agreement(judge: dict[PairKey, str], by_order: tuple[dict[PairKey, str], dict[PairKey, str]],
                         raters: dict[str, dict[PairKey, str]]) -> dict[str, Any]:
    """The judge against each rater and (with two or more raters) their majority — items without one set aside and
    counted — and the raters among themselves: Cohen's κ per pair, Krippendorff's α, the majority's outcomes."""
    keys = sorted({key for labels in raters.values() for key in labels})
    majority = consensus(raters)
    people = {**raters, **({MAJORITY: majority} if len(raters) > 1 else {})}
    among = {f"{a} / {b}": compare_labels([raters[a][k] for k in shared], [raters[b][k] for k in shared],
                                          "outcome")["kappa"]
             for a, b in combinations(sorted(raters), 2)
             if (shared := sorted(set(raters[a]) & set(raters[b])))}
    return {"raters": sorted(raters), "items": len(keys),
            "against": {name: judge_against(judge, by_order, labels) for name, labels in people.items()},
            "among_raters": {"kappa": among, "alpha": krippendorff_alpha(raters, keys, "outcome"),
                             "majority": {outcome: sum(v == outcome for v in majority.values()) for outcome in OUTCOMES},
                             "no_majority": len(keys) - len(majority)} if len(raters) > 1 else None}


def consensus(raters: dict[str, dict[PairKey, str]]) -> dict[PairKey, str]:
    """People's outcome per compared item: the raters' majority (an item without one left out), or the one rater's."""
    keys = sorted({key for labels in raters.values() for key in labels})
    return {key: found for key in keys
            if (found := most_common_label([labels[key] for labels in raters.values() if key in labels]))}


def pair_outcomes(rows: dict[str, list]) -> tuple[dict[PairKey, str], tuple[dict[PairKey, str], dict[PairKey, str]]]:
    """The judge's outcome per pair and item from B5_pairwise rows, and each order's outcome taken alone."""
    keys = list(zip(rows["first"], rows["second"], map(str, rows["id"])))
    pick = [{k: v for k, v in zip(keys, rows[column]) if v is not None}
            for column in ("outcome", "first_order", "second_order")]
    return pick[0], (pick[1], pick[2])



def people_decisions(rows: dict[str, list], people: dict[PairKey, str]) -> list[tuple[str, int, int]]:
    """(people's outcome, first's characters, second's characters) for each compared item people decided, from
    B5_pairwise rows (see biases.length_preference)."""
    lengths = {(f, s, str(i)): (a, b) for f, s, i, a, b in zip(rows["first"], rows["second"], rows["id"],
                                                              rows["first_characters"], rows["second_characters"])}
    return [(outcome, *lengths[key]) for key, outcome in people.items() if key in lengths]


def order_agreement_items(by_order: tuple[dict[PairKey, str], dict[PairKey, str]],
                          people: dict[PairKey, str]) -> dict[str, list]:
    """Per compared item people decided and each order the judge answered in, whether that order's outcome is
    people's (1) or not (0) — the items behind LLMBar's per-order accuracy, for comparing nights item by item; ids
    <first>|<second>|<item>#order<1 or 2>."""
    ids, values = [], []
    for key in sorted(people):
        for order, outcomes in enumerate(by_order, start=1):
            if outcomes.get(key) is not None:
                ids.append(f"{key[0]}|{key[1]}|{key[2]}#order{order}")
                values.append(1.0 if outcomes[key] == people[key] else 0.0)
    return {"ids": ids, "values": values}



def preferences_against_judge(outcomes: dict[str, list], items: set[str], labels_files: LabelsFiles,
                              ) -> tuple[dict[str, Any] | None, dict[PairKey, str], list[Reject]]:
    """The judge's pairwise outcomes (B5_pairwise rows) against every rater's preferences between two answers
    (labels files with model_a, model_b and winner columns; see preference_agreement), people's outcome per item
    (their majority) and what was set aside."""
    found = {rater: (path, data) for rater, (path, data) in labels_files.items() if is_preference_file(data)}
    if not found:
        return None, {}, []
    pairs = set(zip(outcomes["first"], outcomes["second"]))
    raters, rejects = {}, []
    for rater, (path, data) in found.items():
        raters[rater], set_aside = read_preferences(data, str(path), pairs, items)
        rejects += set_aside
    judge, by_order = pair_outcomes(outcomes)
    return preference_agreement(judge, by_order, raters), consensus(raters), rejects
