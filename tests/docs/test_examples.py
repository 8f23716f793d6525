"""Every page's examples run as written (see doc_examples.py for what runs and how it is compared)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_examples import (
    DOCS,
    FRESH_MARKER,
    Page,
    console_steps,
    dataset_toml_problem,
    make_templates,
    output_matches,
    registries_restored,
)

pytestmark = pytest.mark.end_to_end  # the examples run evalpipe as a reader would

RUNNABLE = re.compile(r"^```(console|toml|python)\s*$", re.MULTILINE)
PAGES = sorted(path for path in DOCS.rglob("*.md") if RUNNABLE.search(path.read_text(encoding="utf-8")))


@pytest.fixture(scope="session")
def templates(tmp_path_factory) -> tuple[Path, Path]:
    return make_templates(tmp_path_factory.mktemp("docs-templates"))


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_examples_run_as_written(path, templates, tmp_path):
    page = Page(path, templates, tmp_path)
    examples = page.examples()
    assert examples, f"{path.name} has a runnable block the parsers did not find"
    with registries_restored():
        for example in examples:
            example.evaluate()


def test_the_pages_with_runnable_examples_are_found():
    names = {str(p.relative_to(DOCS)) for p in PAGES}
    assert {"getting-started.md", "inputs.md", "judge.md", "artifacts.md"} <= names
    assert FRESH_MARKER in (DOCS / "getting-started.md").read_text(encoding="utf-8")


def test_console_blocks_split_into_commands_and_their_output():
    block = "$ evalpipe status\nB1 done\nB2 done\n$ echo hi\nhi\n"
    assert console_steps(block) == [("evalpipe status", "B1 done\nB2 done"), ("echo hi", "hi")]
    with pytest.raises(ValueError):
        console_steps("output first\n$ echo hi\n")


def test_output_comparison_takes_ellipses_and_nothing_else():
    actual = "rows 12\noutputs in /tmp/x/outputs\nreport: /tmp/x/outputs/report.html\n"
    assert output_matches("rows 12\noutputs in .../outputs\nreport: .../report.html", actual)
    assert output_matches("rows 12\n...", actual)
    assert output_matches("...\nreport: .../report.html", actual)
    assert not output_matches("rows 13\n...", actual)
    assert not output_matches("rows 12\noutputs in .../outputs", actual)
    assert not output_matches("rows 12\noutputs in /elsewhere/outputs\n...", actual)


def test_a_toml_example_with_an_unknown_key_or_a_bad_value_fails(templates, tmp_path):
    root = templates[0].parent
    assert dataset_toml_problem({"kind": "qa", "params": {"mode": "squad"}}, tmp_path / "a", root) is None
    assert "unknown key" in dataset_toml_problem({"kind": "qa", "colour": "red"}, tmp_path / "b", root)
    assert "partial_f1_threshold" in dataset_toml_problem({"params": {"partial_f1_threshold": 7.0}},
                                                          tmp_path / "c", root)
    assert "not built in" in dataset_toml_problem({"judge": {"url": "http://127.0.0.1:9", "model": "m",
                                                             "criteria": ["no_such_criterion"]}}, tmp_path / "d", root)
