"""Humanity's Last Exam as centerforaisafety/hle scores it (hle_eval/run_judge_results.py): the judge's extracted
answer, correct yes / no and the model's stated confidence (`ExtractedAnswer`), then `dump_metrics`' accuracy with
its Wald half-width and `calib_err`'s binned RMS calibration error (bins of β = 100 answers by confidence)."""
from __future__ import annotations

import json
import math
import re
from typing import Any

from ...raters.scales import SCALES
from ..verdicts import Verdict
from . import JudgedTask, register_judged_task

LABELS = SCALES["hle"]
BETA = 100  # calib_err's bin size, as dump_metrics calls it
FIELDS = ("extracted_final_answer", "reasoning", "correct", "confidence")
_WHOLE = re.compile(r"-?[0-9]{1,15}")  # a whole number a float holds exactly, whose calibration gap squared is finite
_MARKS = re.compile(r"[\s*#]*")  # a labelled line's lead (matched within its line)
_GAP = re.compile(r"[\s*]*")


def hle_judgement(reply: str) -> Verdict:
    """The judge's ExtractedAnswer: a JSON object with its fields (what the script's structured output returns), else
    its prompt's labelled lines; `correct` must be yes or no and `confidence` a whole number, else nothing is read
    (the script's parse fails and the item has no judge response)."""
    found = _from_json(reply) or _from_lines(reply)
    if found is None:
        return Verdict(None, None, None)
    answer, correct, confidence = found["extracted_final_answer"], found["correct"], found["confidence"]
    if not isinstance(answer, str) or correct not in ("yes", "no") or isinstance(confidence, bool) or \
            not isinstance(confidence, int) or not _WHOLE.fullmatch(str(confidence)):
        return Verdict(None, None, None)
    reasoning = found.get("reasoning")
    return Verdict(correct, LABELS[correct], reasoning if isinstance(reasoning, str) and reasoning else None,
                   {"extracted_final_answer": answer, "correct": correct,
                    "confidence": confidence})


def _from_json(reply: str) -> dict[str, Any] | None:
    """The text from the reply's first { to its last } read as JSON (what `\\{.*\\}` finds, found in linear time)."""
    start, end = reply.find("{"), reply.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        found = json.loads(reply[start:end + 1])
    except (ValueError, RecursionError):  # a JSONDecodeError, or a number past int()'s digits
        return None
    if not isinstance(found, dict) or not {"extracted_final_answer", "correct", "confidence"} <= set(found):
        return None
    confidence = found["confidence"]
    if isinstance(confidence, float) and confidence.is_integer():
        confidence = int(confidence)
    return {**found, "confidence": confidence}


def _from_lines(reply: str) -> dict[str, Any] | None:
    lines = _labelled_lines(reply)
    if any(name not in lines for name in ("extracted_final_answer", "correct", "confidence")):
        return None
    confidence = lines["confidence"].rstrip("%").strip()
    return {"extracted_final_answer": lines["extracted_final_answer"], "reasoning": lines.get("reasoning"),
            "correct": lines["correct"].strip("'\"").lower(),
            "confidence": int(confidence) if _WHOLE.fullmatch(confidence) and confidence[0] != "-" else confidence}


def _labelled_lines(reply: str) -> dict[str, str]:
    """Each field's first `name: value` line (the name after spaces, * and #, in any case; white space and * around
    the colon, across lines; the value the rest of its line, right-stripped), in one pass over the lines."""
    found: dict[str, str] = {}
    start = 0
    while start <= len(reply) and len(found) < len(FIELDS):
        line_end = reply.find("\n", start)
        line_end = len(reply) if line_end < 0 else line_end
        at = _MARKS.match(reply, start, line_end).end()
        for name in FIELDS:
            if name not in found and reply[at:at + len(name)].lower() == name:
                colon = _GAP.match(reply, at + len(name)).end()
                if reply.startswith(":", colon):
                    value = _GAP.match(reply, colon + 1).end()
                    value_end = reply.find("\n", value)
                    found[name] = reply[value:len(reply) if value_end < 0 else value_end].rstrip()
        start = line_end + 1
    return found


def calibration_error(confidence: list[float], correct: list[bool], beta: int = BETA) -> float | None:
    """calib_err(p='2'): answers ordered by confidence (numpy's default argsort, as the script's), cut into bins of
    `beta`; the root of the bins' weighted squared gaps between mean confidence and accuracy — over every bin but the
    last (the script's loop stops one short, so the last bin, with the remainder, never counts). None below `beta`
    answers, where the script fails (no bin)."""
    import numpy as np

    if len(confidence) < beta:
        return None
    order = np.argsort(np.array(confidence, dtype=float))
    ordered_confidence = np.array(confidence, dtype=float)[order]
    ordered_correct = np.array(correct, dtype=bool)[order]
    total = len(confidence)
    squares = 0.0
    for start in range(0, (total // beta - 1) * beta, beta):
        gap = np.abs(np.nanmean(ordered_confidence[start:start + beta]) - np.nanmean(ordered_correct[start:start + beta]))
        squares += beta / total * np.square(gap)
    return float(np.sqrt(squares))


def hle_figures(details: list[dict[str, Any] | None], unanswered: int) -> dict[str, Any]:
    """dump_metrics over the judged items and the items without an answer (in n, not correct, no confidence): accuracy
    in percent and its 95% Wald half-width, each rounded to 2 places as the script rounds them (the half-width from
    the rounded accuracy), and the calibration error in percent as it prints it (100 × its value rounded to 2 places)
    and unrounded."""
    judged = [found for found in details if found is not None]
    n = len(judged) + unanswered
    if not n:
        return {"n": 0}
    correct = [found["correct"] == "yes" for found in judged]
    accuracy = round(100 * sum(correct) / n, 2)
    error = calibration_error([found["confidence"] / 100 for found in judged], correct)
    return {"n": n, "unanswered": unanswered, "correct": sum(correct), "accuracy": accuracy,
            "half_width": round(1.96 * math.sqrt(accuracy * (100 - accuracy) / n), 2),
            "calibration_error": None if error is None else 100 * round(error, 2),
            "calibration_error_unrounded": None if error is None else 100 * error, "calibrated_on": len(judged)}


def hle_line(figures: dict[str, Any]) -> str:
    if not figures["n"]:
        return "HLE: no judged item"
    calibration = ("n/a (under 100 judged answers: calib_err has no bin)"
                   if figures["calibration_error"] is None else f"{figures['calibration_error']:g}")
    return (f"HLE n={figures['n']}: accuracy {figures['accuracy']}% +/- {figures['half_width']}% "
            f"({figures['unanswered']} without an answer counted wrong), calibration error {calibration}")


def hle_interval(figures: dict[str, Any]) -> dict[str, Any] | None:
    """dump_metrics' interval: the accuracy ± its Wald half-width, in percent."""
    if not figures.get("n"):
        return None
    accuracy, half = figures["accuracy"], figures["half_width"]
    return {"low": accuracy - half, "high": accuracy + half, "n": figures["n"], "method": "wald"}


HLE = register_judged_task(JudgedTask(
    name="hle", reference="hle hle_eval/run_judge_results.py (extract_answer, dump_metrics, calib_err)",
    placeholders={"question": "question", "response": "prediction", "correct_answer": "expected"},
    read_reply=hle_judgement, figures=hle_figures, figures_line=hle_line, headline="accuracy",
    headline_unit="percent", headline_interval=hle_interval))
