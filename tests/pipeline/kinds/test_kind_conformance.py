"""Every registered kind conforms, with no list of kinds kept here: its defaults resolve under its own rules, and the
small dataset it brings beside its tests — tests/<its package>/conformance/ (tests/stages/kinds/qa/conformance/ for
stages.kinds.qa.kind), a dataset folder as under inputs/ with an expected.json — runs B1 → B6, all kinds' in one run,
and gives the figures its expected.json states (worked out by hand, `why` says how). A kind without one fails here,
saying where it goes (docs/extending.md)."""
import json
import shutil

import pytest

from stages.io.dataset_config import resolve_params
from stages.kinds import get_kind
from stages.kinds.base import KINDS
from tests.pipeline.kinds.conformance import (
    conformance_folder,
    expected_of,
    fixture_missing,
    lacking_programs,
    runnable_kinds,
)
from tests.pipeline.workspace import run


@pytest.fixture(scope="module")
def every_kind_run(tmp_path_factory):
    """One `evalpipe run` over every kind's fixture that is there and can run here: (exit code, outputs folder)."""
    root = tmp_path_factory.mktemp("kinds")
    for name in runnable_kinds():
        shutil.copytree(conformance_folder(name), root / "inputs" / name, ignore=shutil.ignore_patterns("expected.json"))
    return run(root), root / "outputs"


@pytest.mark.parametrize("kind_name", KINDS.names())
def test_a_kinds_defaults_resolve_under_its_own_rules(kind_name):
    kind = get_kind(kind_name)
    assert resolve_params(kind.defaults, rules=kind.param_rules) == kind.defaults
    assert set(kind.param_rules) <= set(kind.defaults)
    assert {name for names in kind.stage_params.values() for name in names} <= set(kind.defaults)


@pytest.mark.parametrize("kind_name", KINDS.names())
def test_a_kinds_fixture_runs_b1_to_b6_and_gives_its_expected_figures(kind_name, every_kind_run):
    missing = fixture_missing(kind_name)
    if missing is not None:
        pytest.fail(missing)
    lacking = lacking_programs(kind_name)
    if lacking:
        pytest.skip(f"{kind_name}'s fixture needs {', '.join(lacking)}, not installed here")
    code, outputs = every_kind_run
    assert code == 0
    report = json.loads((outputs / kind_name / "B6_report.json").read_text(encoding="utf-8"))["report"]
    assert report["kind"] == kind_name and report["problems"] == []
    for model, metrics in expected_of(kind_name)["models"].items():
        for metric, value in metrics.items():
            assert report["models"][model][metric] == pytest.approx(value), (model, metric)
