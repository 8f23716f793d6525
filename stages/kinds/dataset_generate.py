"""dataset.toml's [generate] for one dataset folder: its prompt_template_file read, its protocol checked against the
dataset's kind, and the dataset spec's entries of it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..chat.generation import GenerateConfig, read_generate_config
from ..chat.local_tokenizer import load_tokenizer
from ..core.errors import UsageError
from ..io.dataset_files import TEMPLATE_MAX_BYTES, dataset_file
from ..io.storage import is_local


def read_dataset_generate(table: dict[str, Any], kind: Any, folder: Path) -> GenerateConfig | None:
    """The dataset's [generate] checked (None when it has none): a kind that reads questions, and the protocol the
    kind is asked by (completions for loglikelihoods, a chat server otherwise)."""
    if not table:
        return None
    origin = folder / "dataset.toml"
    if kind.document_folders:
        raise UsageError(f"{origin}: kind {kind.name!r} reads documents; [generate] asks for answers to questions")
    generate = read_generate_config(with_tokenizer_folder(with_template_file(table, folder), folder), str(origin))
    if (generate.protocol == "completions") != kind.asks_completions:
        raise UsageError(f"{origin}: kind {kind.name!r} " + (
            "is asked of a completions endpoint: [generate] protocol = \"completions\"" if kind.asks_completions
            else "asks a chat server; [generate] protocol \"completions\" is for kind \"loglikelihood\""))
    if generate.mode is not None and generate.mode not in kind.generate_modes:
        raise UsageError(f"{origin}: [generate] mode = {generate.mode!r}: kind {kind.name!r} "
                         + (f"asks in mode {' or '.join(map(repr, kind.generate_modes))}" if kind.generate_modes
                            else "has no modes"))
    return generate


def read_dataset_user(table: dict[str, Any], generate: GenerateConfig | None, kind: Any,
                      folder: Path) -> GenerateConfig | None:
    """The dataset's [user] checked (the user simulator of a kind that asks_user: url, model, temperature, key as
    [generate]'s), None without [generate]; a kind that asks_user needs it, any other kind refuses it."""
    origin = folder / "dataset.toml"
    if table and not kind.asks_user:
        raise UsageError(f"{origin}: [user] is the user simulator of a conversation kind (tau2); kind {kind.name!r} "
                         "asks none")
    if generate is None or not kind.asks_user:
        return None
    if not table:
        raise UsageError(f"{origin}: kind {kind.name!r} asks conversations: [generate] needs a [user] section (url, "
                         "model: the user simulator)")
    if not isinstance(table.get("model"), str) or "models" in table:
        raise UsageError(f"{origin}: [user] model = \"<name>\": the one model that plays the user")
    settings = {key: value for key, value in table.items() if key != "model"}
    return read_generate_config({**settings, "models": [table["model"]]}, f"{origin} [user]")


def with_template_file(table: dict[str, Any], folder: Path) -> dict[str, Any]:
    """[generate] prompt_template_file (beside dataset.toml) read into prompt_template."""
    if "prompt_template_file" not in table:
        return table
    table = dict(table)
    origin = str(folder / "dataset.toml")
    if "prompt_template" in table:
        raise UsageError(f"{origin}: [generate] has both prompt_template and prompt_template_file")
    path = dataset_file(folder, table.pop("prompt_template_file"), "[generate] prompt_template_file", origin,
                        TEMPLATE_MAX_BYTES)
    try:
        table["prompt_template"] = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{origin}: cannot read prompt_template_file {path} ({exc})") from None
    return table


def with_tokenizer_folder(table: dict[str, Any], folder: Path) -> dict[str, Any]:
    """[generate] tokenizer (a local folder: absolute, or relative to the dataset folder) made absolute, once its
    tokenizer is known to load."""
    name = table.get("tokenizer")
    if not isinstance(name, str):
        return table
    origin = folder / "dataset.toml"
    if not is_local(folder) and not Path(name).is_absolute():
        raise UsageError(f"{origin}: [generate] tokenizer {name!r} must be an absolute local folder for a dataset at "
                         f"{folder}")
    path = (Path(name) if Path(name).is_absolute() else Path(folder) / name).resolve()
    try:
        load_tokenizer(path)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{origin}: [generate] tokenizer {name!r}: {exc}") from None
    return {**table, "tokenizer": str(path)}


def generate_spec(generate: GenerateConfig | None, user: GenerateConfig | None = None) -> dict[str, Any]:
    """The dataset spec's entries of [generate] and [user]: their settings (never a key) and how many calls
    [generate] runs at once."""
    return {"generate": None if generate is None else generate.described(),
            "user": None if user is None else user.described(),
            "generate_concurrency": 1 if generate is None else generate.concurrency}
