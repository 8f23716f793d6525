"""A Hugging Face tokenizer folder (its tokenizer.json, read by the `tokenizers` package) encoding text as lm-eval
0.4.13's huggingface tokenizer backend does for an API model: no special tokens added (add_bos_token is off), the
prefix token of an empty context its BOS token, else its EOS token (from tokenizer_config.json or
special_tokens_map.json)."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .client import CallFailed

CONFIG_FILES = ("tokenizer_config.json", "special_tokens_map.json")


def _token_text(value: Any) -> str | None:
    """A special token as a config names it: its text, or an added token's {"content": text}."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) and value else None


class LocalTokenizer:
    """tokenize / prefix_token as a completions server's /tokenize and /tokenizer_info answer them, from a folder."""

    def __init__(self, folder: Path) -> None:
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise ValueError("reading a tokenizer folder needs the tokenizers package "
                             "(pip install 'evalpipe[tokenizer]')") from None
        path = folder / "tokenizer.json"
        if not path.is_file():
            raise ValueError(f"{folder} holds no tokenizer.json" if folder.is_dir() else f"{folder} is no folder")
        data = path.read_bytes()
        try:
            self.tokenizer = Tokenizer.from_str(data.decode("utf-8"))
        except Exception as exc:  # noqa: BLE001  (the Rust library raises its own Exception)
            raise ValueError(f"{path} is not a readable tokenizer ({str(exc).splitlines()[0] if str(exc) else exc!r})") from None
        configs = [self._config(folder / name) for name in CONFIG_FILES]
        self.special = {name: next((t for c in configs if (t := _token_text(c.get(f"{name}_token")))), None)
                        for name in ("bos", "eos")}
        digest = hashlib.sha256(data)
        for config in configs:
            digest.update(json.dumps(config, sort_keys=True).encode())
        self.fingerprint = digest.hexdigest()[:16]

    @staticmethod
    def _config(path: Path) -> dict[str, Any]:
        if not path.is_file():
            return {}
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path} is not readable JSON ({exc})") from None
        if not isinstance(found, dict):
            raise ValueError(f"{path} is not a JSON object")
        return found

    def tokenize(self, text: str) -> list[int]:
        """The tokens of `text`, without special tokens (lm-eval's tok_encode with add_special_tokens False)."""
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def prefix_token(self) -> int:
        """The token an empty context stands for: the BOS token's id, else EOS's (lm-eval's prefix_token_id)."""
        for name in ("bos", "eos"):
            token = self.special[name]
            found = self.tokenizer.token_to_id(token) if token is not None else None
            if found is not None:
                return found
        raise CallFailed("the tokenizer folder names no BOS or EOS token for an empty context (tokenizer_config.json "
                         "bos_token / eos_token)", retryable=False)


@lru_cache(maxsize=8)
def _load(folder: str, stamp: tuple) -> LocalTokenizer:
    return LocalTokenizer(Path(folder))


def load_tokenizer(folder: str | Path) -> LocalTokenizer:
    """The folder's tokenizer (read once while its files are unchanged); a ValueError says in one line why not."""
    path = Path(folder)
    stamp = tuple((p.stat().st_mtime_ns, p.stat().st_size) if p.is_file() else None
                  for p in (path / name for name in ("tokenizer.json", *CONFIG_FILES)))
    return _load(str(path), stamp)


def tokenizer_files(folder: str | None) -> dict[str, Path]:
    """A tokenizer folder's files that exist, each named `tokenizer:<file>` (fingerprinted as B2's inputs); none
    without a folder."""
    if not folder:
        return {}
    files = {f"tokenizer:{name}": Path(folder) / name for name in ("tokenizer.json", *CONFIG_FILES)}
    return {name: path for name, path in files.items() if path.is_file()}
