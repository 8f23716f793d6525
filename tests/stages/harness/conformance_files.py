"""Importers' conformance fixtures (tests/stages/harness/conformance/<tool>.json) and the files one has written at test
time (`written`: file name → its JSON), for files whose name the importer reads but that no repository file carries."""
from __future__ import annotations

import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "conformance"


def conformance(tool: str) -> dict:
    """The conformance fixture of importer `tool`."""
    return json.loads((FOLDER / f"{tool}.json").read_text(encoding="utf-8"))


def written_files(found: dict, folder: Path) -> list[Path]:
    """The files fixture `found` has written, each in `folder` under its name; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in found.get("written", {}).items():
        paths.append(folder / name)
        paths[-1].write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return paths
