"""Run the documentation's examples: each page's code blocks, in order, in a workspace of its own.

- `console`: every `$ command` runs in bash (stderr with stdout, pipefail) and must exit 0 with the output written
  under it; `...` in an expected line matches any text, a line of `...` alone any number of lines.
- `toml`: validated as a dataset.toml is — written into a copy of the demo dataset of its kind and checked by
  `evalpipe status`, which must exit 0.
- `python`: executed, with the workspace as the working directory.

A page's workspace holds the demo inputs and luigi.cfg, and the outputs of a finished demo run unless the page says
`<!-- docs-test: fresh inputs -->` before its examples.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tomli_w
from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import CodeBlockParser

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
FRESH_MARKER = "<!-- docs-test: fresh inputs -->"
DEMO_DATASET_OF_KIND = {
    "qa": "qa_mixed", "fact_verification": "fact_check", "multiple_choice": "mc_mixed", "numeric": "numeric_finance",
    "dialogue": "peppa_dialogue", "annotation": "story_annotation", "instruction": "instructions",
}


def demo_environment() -> dict[str, str]:
    """The environment examples run in: this interpreter's `evalpipe` first on PATH, luigi.cfg from the workspace."""
    env = {k: v for k, v in os.environ.items() if k != "LUIGI_CONFIG_PATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["HF_HUB_OFFLINE"] = "1"
    return env


@contextmanager
def registries_restored() -> Iterator[None]:
    """The kinds', importers', leaderboards', sandbox backends' and languages' registries as they were before a
    page's examples registered parts of their own (Extending evalpipe), so no later test sees them."""
    from stages.harness.imported import IMPORTERS
    from stages.kinds.base import KINDS
    from stages.leaderboards.board import LEADERBOARDS
    from stages.sandbox.backends import BACKENDS
    from stages.sandbox.languages import LANGUAGES

    saved = [(registry, dict(registry._parts)) for registry in (KINDS, IMPORTERS, LEADERBOARDS, BACKENDS, LANGUAGES)]
    try:
        yield
    finally:
        for registry, parts in saved:
            registry._parts.clear()
            registry._parts.update(parts)


def make_templates(root: Path) -> tuple[Path, Path]:
    """(fresh, finished): the demo inputs + luigi.cfg, and the same after `evalpipe run`; beside them, under
    `examples/`, an instruction dataset for examples of that kind (no demo dataset of it runs without a judge)."""
    fresh = root / "fresh"
    shutil.copytree(REPO / "inputs", fresh / "inputs")
    shutil.copy(REPO / "luigi.cfg", fresh / "luigi.cfg")
    finished = root / "finished"
    shutil.copytree(fresh, finished)
    result = subprocess.run(["evalpipe", "run"], cwd=finished, env=demo_environment(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    write_instruction_dataset(root / "examples" / "instructions")
    return fresh, finished


def write_instruction_dataset(folder: Path) -> None:
    """Three instructions with a reference each, answered by three models (the examples' baselines among them), with
    an AlpacaEval annotator's recorded verdicts."""
    (folder / "predictions").mkdir(parents=True)
    (folder / "verdicts").mkdir()
    (folder / "verdicts" / "weighted_alpaca_eval_gpt4_turbo.jsonl").write_text(
        "".join(f'{{"id": "{i}", "model": "model_a", "preference": 1.5}}\n' for i in "123"), encoding="utf-8")
    rows = [("1", "Write a haiku about rain.", "Soft rain on the roof"), ("2", "Name three primes.", "2, 3, 5"),
            ("3", "用一句话介绍北京。", "北京是中国的首都。")]
    (folder / "questions.jsonl").write_text("".join(
        f'{{"id": "{i}", "instruction": "{text}", "answer": "{ref}"}}\n' for i, text, ref in rows), encoding="utf-8")
    for model in ("gpt-4-0314", "gpt4_1106_preview", "model_a"):
        (folder / "predictions" / f"{model}.jsonl").write_text("".join(
            f'{{"id": "{i}", "output": "{model} answers {i}"}}\n' for i, _, _ in rows), encoding="utf-8")


class Page:
    """One documentation page's examples, run in order against one workspace."""

    def __init__(self, path: Path, templates: tuple[Path, Path], scratch: Path) -> None:
        self.path = path
        self.fresh, self.finished = templates
        self.scratch = scratch
        self.workspace: Path | None = None
        parsers = [self.parse_marker, CodeBlockParser("console", self.run_console),
                   CodeBlockParser("toml", self.check_toml), CodeBlockParser("python", self.run_python)]
        self.document: Document = Sybil(parsers).parse(path)

    def examples(self) -> list[Example]:
        return list(self.document)

    def parse_marker(self, document: Document):
        for match in re.finditer(re.escape(FRESH_MARKER), document.text):
            yield Region(match.start(), match.end(), None, self.use_fresh_inputs)

    def use_fresh_inputs(self, example: Example) -> None:
        self.workspace = self._copy(self.fresh)

    def ensure_workspace(self) -> Path:
        if self.workspace is None:
            self.workspace = self._copy(self.finished)
        return self.workspace

    def _copy(self, template: Path) -> Path:
        target = self.scratch / "workspace"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(template, target)
        return target

    def run_console(self, example: Example) -> None:
        workspace = self.ensure_workspace()
        for command, expected in console_steps(example.parsed):
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=workspace, env=demo_environment(),
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
            where = f"{self.path.name}, line {example.line}: $ {command}"
            assert result.returncode == 0, f"{where}\nexited {result.returncode}:\n{result.stdout}"
            assert output_matches(expected, result.stdout), (
                f"{where}\nexpected:\n{expected}\ngot:\n{result.stdout}")

    def check_toml(self, example: Example) -> None:
        table = tomllib.loads(example.parsed)
        problem = dataset_toml_problem(table, self.scratch / "toml", self.fresh.parent)
        assert problem is None, f"{self.path.name}, line {example.line}: {problem}"

    def run_python(self, example: Example) -> None:
        workspace = self.ensure_workspace()
        before = Path.cwd()
        os.chdir(workspace)
        try:
            exec(compile(example.parsed, f"{self.path.name}:{example.line}", "exec"), example.namespace)
        finally:
            os.chdir(before)


def console_steps(block: str) -> list[tuple[str, str]]:
    """(command, expected output) for each `$ ` line of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"console block output before any `$ ` command: {line!r}")
    return [(command, "\n".join(lines)) for command, lines in steps]


def output_matches(expected: str, actual: str) -> bool:
    """Whether `actual` is `expected` line for line (trailing spaces aside), `...` matching any text."""
    parts = []
    for line in expected.rstrip("\n").splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.rstrip().split("...")) + r"[ \t]*\n")
    lines = [line.rstrip() for line in actual.splitlines()]
    return re.fullmatch("".join(parts), "".join(line + "\n" for line in lines)) is not None


def dataset_toml_problem(table: dict[str, Any], scratch: Path, templates: Path) -> str | None:
    """What `evalpipe status` says of `table` as the dataset.toml of the demo dataset of its kind (the demo's own
    dataset.toml underneath, the example's tables over it), or None when it accepts it."""
    kind = table.get("kind", "qa")
    name = DEMO_DATASET_OF_KIND.get(kind) if isinstance(kind, str) else None
    if name is None:
        return f"kind {kind!r} has no demo dataset to try the example on"
    source = templates / "examples" / name if kind == "instruction" else templates / "fresh" / "inputs" / name
    shutil.rmtree(scratch, ignore_errors=True)
    folder = scratch / "inputs" / name
    shutil.copytree(source, folder)
    config = folder / "dataset.toml"
    merged = tomllib.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    for key, value in table.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    config.write_text(tomli_w.dumps(merged), encoding="utf-8")
    result = subprocess.run(["evalpipe", "status", "--inputs", str(scratch / "inputs"), "--outputs",
                             str(scratch / "outputs"), "--dataset", name], cwd=templates / "fresh",
                            env=demo_environment(), capture_output=True, text=True)
    said = (result.stdout + result.stderr).strip()
    return None if result.returncode == 0 else f"exit {result.returncode}: {said}"
