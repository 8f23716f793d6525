"""BFCL's multi-turn function docs: a multi-turn item names its involved classes, whose docs BFCL ships in
`multi_turn_func_doc/<class file>.json` (one doc a line) beside its data files. They are read from that folder beside
the questions file, or from the BFCL data folder dataset.toml names (`[params] bfcl_data`)."""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

DOC_FOLDER = "multi_turn_func_doc"
_BACKENDS = "bfcl_eval.constants.executable_backend_config"  # its MULTI_TURN_FUNC_DOC_FILE_MAPPING: class → file


def func_doc_folder(questions: Path, bfcl_data: str | None) -> Path:
    """Where the docs are: `bfcl_data`'s multi_turn_func_doc/ when named (relative to the dataset folder), else the
    one beside the questions file."""
    return (questions.parent / bfcl_data if bfcl_data else questions.parent) / DOC_FOLDER


class FuncDocs:
    """The docs of each class, read once from `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._docs: dict[str, list[dict[str, Any]] | str] = {}

    def of(self, classes: list[str]) -> tuple[list[dict[str, Any]], str | None]:
        """(every doc of the classes in order, None), or ([], why they cannot be read)."""
        found: list[dict[str, Any]] = []
        for name in classes:
            docs = self._docs.get(name) or self._read(name)
            if isinstance(docs, str):
                return [], docs
            found.extend(docs)
        return found, None

    def _read(self, name: str) -> list[dict[str, Any]] | str:
        files = importlib.import_module(_BACKENDS).MULTI_TURN_FUNC_DOC_FILE_MAPPING
        path = self.folder / files.get(name, f"{name}.json")
        try:
            docs: list[dict[str, Any]] | str = [json.loads(line) for line in path.read_text(encoding="utf-8")
                                                .splitlines() if line.strip()]
        except (OSError, ValueError) as exc:
            docs = f"no function docs for {name}: {path} ({type(exc).__name__}); put BFCL's {DOC_FOLDER}/ beside " \
                   "the questions file or name BFCL's data folder in dataset.toml [params] bfcl_data"
        self._docs[name] = docs
        return docs
