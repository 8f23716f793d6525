"""τ²-bench's published leaderboard (its submissions folder: manifest.json and <submission>/submission.json) read
for one domain — each submission's pass^1…pass^4, tau2 version and user simulator — to be shown beside a run's own
pass^k — and the run's own user simulator beside each submission's — with the board's caveat; a submission that
cannot be read is set aside with its file and reason."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

CAVEAT = ("the board compares agents with a gpt-4.1 user simulator over 4 trials per task: another user or fewer "
          "trials is not comparable")
BOARD_USER = "gpt-4.1"
BOARD_USER_NAME = re.compile(r"(openai/)?gpt-4\.1(-\d{4}-\d{2}-\d{2})?")  # gpt-4.1 or a dated snapshot, not -mini
BOARD_TRIALS = 4
TRACKS = {"submissions": "text", "legacy_submissions": "legacy", "voice_submissions": "voice"}  # manifest.json's lists


def read_board(folder: Path, domain: str) -> dict[str, Any]:
    """The board's submissions with figures for `domain` (pass^k as shares, best pass^1 first), each with its track
    (text, legacy, voice), and those set aside."""
    board: dict[str, Any] = {"folder": str(folder), "domain": domain, "caveat": CAVEAT, "submissions": [],
                             "set_aside": []}
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        tracks = {name: track for key, track in TRACKS.items() for name in manifest.get(key) or []}
    except (OSError, ValueError, AttributeError, TypeError) as error:
        board["set_aside"].append(f"{folder / 'manifest.json'}: unreadable ({error})")
        return board
    for name, track in sorted(tracks.items()):
        path = folder / name / "submission.json"
        try:
            entry = _entry(json.loads(path.read_text(encoding="utf-8")), domain)
        except OSError as error:
            board["set_aside"].append(f"{path}: not readable ({error.strerror})")
            continue
        except (ValueError, AttributeError, TypeError) as error:
            board["set_aside"].append(f"{path}: {error}")
            continue
        if entry is not None:
            board["submissions"].append({"submission": name, "track": track, **entry})
    board["submissions"].sort(key=lambda entry: (-(entry["pass_hat_k"].get("1") or 0.0), entry["submission"]))
    return board


def _entry(document: dict[str, Any], domain: str) -> dict[str, Any] | None:
    """A submission's figures for the domain (None when it has none), with who made it and how."""
    figures = (document.get("results") or {}).get(domain) or {}
    pass_hat_k = {str(k): figures[f"pass_{k}"] / 100 for k in range(1, 5) if figures.get(f"pass_{k}") is not None}
    if not pass_hat_k:
        return None
    if not all(isinstance(value, float | int) and 0 <= value <= 1 for value in pass_hat_k.values()):
        raise ValueError(f"pass^k of {domain} outside 0…100: {figures}")
    methodology = document.get("methodology") or {}
    return {"model": document.get("model_name"), "organization": document.get("model_organization"),
            "date": document.get("submission_date"), "tau2_version": methodology.get("tau2_bench_version"),
            "user_simulator": methodology.get("user_simulator"), "pass_hat_k": pass_hat_k,
            "comparable_user": is_board_user(str(methodology.get("user_simulator") or ""))}


def is_board_user(name: str) -> bool:
    """Whether a user simulator is the board's: gpt-4.1 (or a dated snapshot of it; not gpt-4.1-mini)."""
    return BOARD_USER_NAME.fullmatch(name.strip()) is not None


def run_user(generation: dict[str, Any] | None) -> str | None:
    """The user simulator a run's trials were asked with (its B2 summary's `[user]` model); None when not asked
    live (imported trials)."""
    return ((generation or {}).get("user") or {}).get("model")


def user_caveat(user: str | None) -> str | None:
    """Why a run's user simulator is not the board's: another model than gpt-4.1, or none recorded."""
    if user is None:
        return f"user simulator not recorded (trials not asked live): the board's is {BOARD_USER}"
    return None if is_board_user(user) else f"user simulator {user}, not the board's {BOARD_USER}: not comparable"


def run_caveat(metrics: dict[str, Any]) -> str | None:
    """Why a run's own pass^k is not the board's kind of figure: fewer trials per task than the board's 4."""
    trials = max((int(k) for k in metrics.get("pass_hat_k") or {}), default=0)
    return None if trials >= BOARD_TRIALS else f"pass^k up to k = {trials} only (the board's: {BOARD_TRIALS} trials)"
