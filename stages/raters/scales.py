"""Rating scales: what a judge or a person may answer (a scale's labels) and what each label is worth; a scale's
label read from what either wrote."""
from __future__ import annotations

SCALES: dict[str, dict[str, float]] = {  # verdict label → value; a criterion's score is the mean of its values
    "binary": {"0": 0.0, "1": 1.0},
    "correct": {"CORRECT": 1.0, "INCORRECT": 0.0, "NOT_ATTEMPTED": 0.0},
    "1-5": {str(n): float(n) for n in range(1, 6)},
    "1-10": {f"{n / 2:g}": n / 2 for n in range(2, 21)},  # MT-Bench's [[rating]]: 1 to 10, halves allowed
    "preference": {"A": 1.0, "B": 0.0, "TIE": 0.5},  # pairwise only: which position's answer is better
    "five_way": {"A>>B": 1.0, "A>B": 0.75, "A=B": 0.5, "B>A": 0.25, "B>>A": 0.0},  # pairwise: Arena-Hard's verdicts
    "outcome": {"first": 1.0, "tie": 0.5, "second": 0.0},  # a pair's outcome for its first model, judge or people
    "simpleqa": {"CORRECT": 1.0, "INCORRECT": 0.0, "NOT_ATTEMPTED": 0.0},  # SimpleQA's grades (stages/judge/tasks)
    "hle": {"yes": 1.0, "no": 0.0},  # Humanity's Last Exam's judge: is the extracted answer correct
}
ORDINAL_SCALES = ("1-5", "1-10")  # combined by mean across a panel (others by majority) and compared by weighted κ


def scale_label(text: object, scale: str) -> str | None:
    """`text` as one of the scale's labels ("1", "CORRECT" …), or None when it names none."""
    labels = SCALES[scale]
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        text = str(int(text)) if float(text).is_integer() else str(text)
    if not isinstance(text, str):
        return None
    cleaned = text.strip().strip("\"'*.。").strip()
    candidate = cleaned.upper().replace(" ", "_").replace("-", "_")
    if candidate in labels:
        return candidate
    if cleaned.lower() in labels:
        return cleaned.lower()  # HLE's judge answers yes / no
    if scale == "preference" and candidate == "C":
        return "TIE"  # FastChat's pairwise prompts ask for [[C]] for a tie
    try:
        number = float(cleaned)
    except ValueError:
        return None
    return str(int(number)) if number.is_integer() and str(int(number)) in labels else None
