"""dataset.toml: kind, field names and per-dataset parameter overrides."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.param_rules import Rule, within
from .storage import read_input_bytes

FIELD_KEYS = ("id_field", "question_field", "gold_field", "prediction_field", "samples_field")
KNOWN_KEYS = {"kind", "task", "params", "taxonomies", "generate", "user", "judge", "leaderboard", "nightly", "max_rejected_share",
              "min_paired_share", "max_unscored_share", "provenance", "reasoning", *FIELD_KEYS}
DEFAULT_MAX_REJECTED_SHARE = 0.5
DEFAULT_MIN_PAIRED_SHARE = 0.5
DEFAULT_MAX_UNSCORED_SHARE = 0.02  # stages/chat/outage.py


@dataclass(frozen=True)
class DatasetConfig:
    """What dataset.toml says about one dataset (every key optional)."""

    kind: str | None = None
    task: str | None = None  # a kind's built-in task (loglikelihood: hellaswag, arc_easy, arc_challenge, mmlu)
    id_field: str | None = None
    question_field: str | None = None
    gold_field: str | None = None
    prediction_field: str | None = None
    samples_field: str | None = None  # a prediction record's list of replies (default: samples)
    params: dict[str, Any] = field(default_factory=dict)
    taxonomies: dict[str, str] = field(default_factory=dict)
    generate: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)
    user: dict[str, Any] = field(default_factory=dict)  # the user simulator a conversation kind asks (tau2)
    leaderboard: dict[str, Any] = field(default_factory=dict)
    nightly: dict[str, Any] = field(default_factory=dict)
    max_rejected_share: float = DEFAULT_MAX_REJECTED_SHARE  # above it, a dataset fails the run (B1 or any model's B2)
    min_paired_share: float = DEFAULT_MIN_PAIRED_SHARE  # below it (questions with a prediction), the dataset fails
    max_unscored_share: float = DEFAULT_MAX_UNSCORED_SHARE  # above it (items not scored), a model is not published
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict)  # per model: the harness it was imported from
    reasoning: dict[str, Any] = field(default_factory=dict)  # the tags replies wrap their reasoning in

    def fields(self) -> dict[str, str | None]:
        return {key: getattr(self, key) for key in FIELD_KEYS}


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's table ({} when the file is missing); a broken one is a UsageError naming the problem."""
    if not path.exists():
        return {}
    try:
        return tomllib.loads(read_input_bytes(path).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def read_dataset_config(path: Path) -> DatasetConfig:
    """Parse dataset.toml; a missing file means all defaults, a broken one is a UsageError naming the problem."""
    data = read_toml(path)
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise UsageError(f"{path}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(KNOWN_KEYS))})")
    for key in ("kind", "task", *FIELD_KEYS):
        if key in data and not isinstance(data[key], str):
            raise UsageError(f"{path}: {key} must be a string, got {type(data[key]).__name__}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise UsageError(f"{path}: [params] must be a table")
    taxonomies = data.get("taxonomies", {})
    if not isinstance(taxonomies, dict) or not all(isinstance(v, str) for v in taxonomies.values()):
        raise UsageError(f"{path}: [taxonomies] must be a table of file paths")
    generate = data.get("generate", {})
    if not isinstance(generate, dict):
        raise UsageError(f"{path}: [generate] must be a table")
    judge = data.get("judge", {})
    if not isinstance(judge, dict):
        raise UsageError(f"{path}: [judge] must be a table")
    user = data.get("user", {})
    if not isinstance(user, dict):
        raise UsageError(f"{path}: [user] must be a table")
    leaderboard = data.get("leaderboard", {})
    if not isinstance(leaderboard, dict):
        raise UsageError(f"{path}: [leaderboard] must be a table")
    nightly = data.get("nightly", {})
    if not isinstance(nightly, dict):
        raise UsageError(f"{path}: [nightly] must be a table")
    reasoning = data.get("reasoning", {})
    if not isinstance(reasoning, dict):
        raise UsageError(f"{path}: [reasoning] must be a table")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict) or not all(isinstance(v, dict) for v in provenance.values()):
        raise UsageError(f"{path}: [provenance] must be a table of one table per model")
    shares = {}
    for name, default in (("max_rejected_share", DEFAULT_MAX_REJECTED_SHARE),
                          ("min_paired_share", DEFAULT_MIN_PAIRED_SHARE),
                          ("max_unscored_share", DEFAULT_MAX_UNSCORED_SHARE)):
        shares[name] = data.get(name, default)
        problem = within(0, 1)(shares[name])
        if problem is not None:
            raise UsageError(f"{path}: {name} = {shares[name]!r} {problem}")
    return DatasetConfig(params=params, taxonomies=taxonomies, generate=generate, judge=judge, user=user,
                         leaderboard=leaderboard, nightly=nightly,
                         provenance=provenance, reasoning=reasoning,
                         **{name: float(value) for name, value in shares.items()},
                         **{k: data.get(k) for k in ("kind", "task", *FIELD_KEYS)})


def resolve_params(kind_defaults: dict[str, Any], *layers: tuple[str, dict[str, Any]],
                   rules: dict[str, Rule] | None = None) -> dict[str, Any]:
    """Defaults overridden layer by layer (e.g. luigi.cfg, then dataset.toml); unknown names, wrong types and values
    a rule refuses fail, naming the file and key the value came from."""
    resolved = dict(kind_defaults)
    origins = dict.fromkeys(kind_defaults, "default")
    for origin, layer in layers:
        for name, value in layer.items():
            if name not in kind_defaults:
                raise UsageError(f"{origin}: unknown parameter {name!r} (known: {', '.join(sorted(kind_defaults))})")
            resolved[name] = _coerce(origin, name, value, kind_defaults[name])
            origins[name] = origin
    for name, rule in (rules or {}).items():
        problem = rule(resolved[name])
        if problem is not None:
            raise UsageError(f"{origins[name]}: {name} = {resolved[name]!r} {problem}")
    return resolved


def _coerce(origin: str, name: str, value: Any, default: Any) -> Any:
    if isinstance(value, str) and not isinstance(default, str):
        value = _parse_scalar(value)
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(default, (int, float)):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value) if isinstance(default, float) else value
    elif isinstance(default, str) and isinstance(value, str):
        return value
    elif default is None or isinstance(value, type(default)):
        return value
    raise UsageError(f"{origin}: parameter {name!r} must be {type(default).__name__}, got {value!r}")


def _parse_scalar(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
