"""Every registered importer and leaderboard conforms, with no list of them kept here: each brings its fixture beside
its tests, and a part without one fails, saying where it goes (docs/extending.md). An importer's —
tests/stages/harness/conformance/<tool>.json — names its tool's files, the options its reader takes (paths relative to
the repository; one not found here skips the test), the files written at test time (`written`: name → JSON) and the
runs they hold (task, model, kind, questions); a leaderboard's — tests/<its package>/conformance.json — is what B6 hands it (board, B5L documents and
rows, answers) and the figures its section must show, in the text report and in report.html."""
import json
from pathlib import Path

import pytest

from stages.harness import importer
from stages.harness.imported import IMPORTERS, ImportedRun
from stages.leaderboards.board import LEADERBOARDS, SectionInputs, get_leaderboard
from stages.report.aggregate import leaderboard_tables
from stages.report.html import render_html_report
from tests.stages.harness.conformance_files import written_files

REPO = Path(__file__).resolve().parents[3]


def _fixture(path: Path, part: str) -> dict:
    if not path.is_file():
        pytest.fail(f"{part} brings no conformance fixture: add {path.relative_to(REPO)} (docs/extending.md)")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("tool", IMPORTERS.names())
def test_an_importer_reads_its_fixture(tool, tmp_path):
    found = _fixture(REPO / "tests" / "stages" / "harness" / "conformance" / f"{tool}.json", f"importer {tool!r}")
    options = {name: (REPO / value).resolve() for name, value in found.get("options", {}).items()}
    absent = [str(path) for path in options.values() if not path.exists()]
    if absent:
        pytest.skip(f"{tool}'s fixture needs {', '.join(absent)} (shared/ beside the checkout)")
    paths = [REPO / path for path in found["paths"]] + written_files(found, tmp_path)
    runs = [run for run in importer(tool)(paths, **options)
            if isinstance(run, ImportedRun)]
    assert [[run.task, run.model, run.kind, len(run.questions)] for run in runs] == found["runs"]
    assert all(run.tool == tool and len(run.predictions) >= len(run.questions) for run in runs)


def _section_inputs(found: dict) -> SectionInputs:
    return SectionInputs(board=found["board"], judges=found["judges"], documents=found["documents"],
                         rows=lambda model: found["rows"][model], published=found.get("published", {}),
                         answers=lambda: found.get("answers", {}))


def _report(name: str, section: dict) -> dict:
    models = {model: {"rows": 1, "answered": 1, "answer_rate": 1.0} for model in section["models"]}
    return {"dataset": "board", "kind": "instruction", "models": models, "leaderboards": {name: section},
            "comparison": {"primary_metric": "answer_rate"}, "set_aside": {}, "problems": [], "distributions": {}}


@pytest.mark.parametrize("name", LEADERBOARDS.names())
def test_a_leaderboards_section_renders_its_fixtures_figures(name):
    board = get_leaderboard(name)
    package = type(board).__module__.rsplit(".", 1)[0]
    found = _fixture(REPO / "tests" / Path(*package.split(".")) / "conformance.json", f"leaderboard {name!r}")
    section = board.section(_section_inputs(found))
    form = board.section_form(found["board"])
    assert section["title"] == form.title and section["columns"] == list(form.columns)
    for model, figures in found["expected"].items():
        for column, value in figures.items():
            assert section["models"][model][column] == pytest.approx(value), (model, column)
    text = leaderboard_tables(_report(board.section_name(found["board"]), section))
    assert text.startswith(form.title) and all(column in text for column in form.columns)
    assert all(model in text for model in section["models"])
    page = render_html_report([_report(board.section_name(found["board"]), section)], {"title": "conformance"})
    assert form.title in page and all(f">{column}<" in page for column in form.columns)
