"""`evalpipe nightly`: history across nights, a real regression (exit 3, named), a wobble that is not one."""
import json
import re

import pytest

from pipeline.cli import main
from tests.pipeline.browser import load_page
from tests.pipeline.nightly.claims import history, nightly, predict
from tests.pipeline.workspace import DEMO_INPUTS


def test_nights_grow_the_history_and_only_a_real_drop_is_a_regression(inputs, capsys, tmp_path):
    predict(inputs)
    code, out = nightly(inputs, "2026-11-01", capsys)
    assert code == 0 and "first night" in out
    first = history(inputs)
    assert {row["date"] for row in first} == {"2026-11-01"}
    assert {(r["dataset"], r["metric"]) for r in first if r["primary"]} == {("claims", "accuracy"), ("capitals", "f1")}
    per_night = len(first)

    # a wobble: two of 40 answers wrong (5 points of EM, McNemar p = 0.25) and two of 200 verdicts (1 point)
    predict(inputs, wrong_claims=2, wrong_questions=2)
    code, out = nightly(inputs, "2026-11-02", capsys)
    assert code == 0, out
    assert "0 regression(s) against 2026-11-01" in out and "REGRESSION" not in out
    assert len(history(inputs)) == 2 * per_night
    wobble = json.loads((inputs.parent / "outputs/nightly/2026-11-02/regressions.json").read_text())
    em = next(c for c in wobble["comparisons"] if (c["dataset"], c["metric"]) == ("capitals", "exact_match"))
    assert em["delta"] == pytest.approx(-0.05) and em["p_value"] == pytest.approx(0.25) and not em["regression"]

    # a regression: 30 more verdicts wrong than the night before (McNemar p = 2^-30)
    predict(inputs, wrong_claims=32, wrong_questions=2)
    code, out = nightly(inputs, "2026-11-03", capsys)
    assert code == 3
    # three tests tonight (claims accuracy, capitals EM and F1): Benjamini–Hochberg gives the smallest p × 3
    assert re.search(r"REGRESSION claims / m / accuracy: 0\.9900 → 0\.8400 \(-0\.1500, p=9\.31e-10, bh-adjusted "
                     r"2\.79e-09, exact McNemar, 200 items\)", out), out
    assert "capitals" not in "".join(line for line in out.splitlines() if line.startswith("REGRESSION"))
    assert len(history(inputs)) == 3 * per_night
    accuracy = [(r["date"], r["value"]) for r in history(inputs) if (r["dataset"], r["metric"]) == ("claims", "accuracy")]
    assert accuracy == [("2026-11-01", 1.0), ("2026-11-02", 0.99), ("2026-11-03", 0.84)]

    # running a night again replaces its rows instead of adding a fourth night
    code, _ = nightly(inputs, "2026-11-03", capsys)
    assert code == 3 and len(history(inputs)) == 3 * per_night

    report = inputs.parent / "outputs/nightly/2026-11-03/report.html"
    html = report.read_text(encoding="utf-8")
    assert "1 regression(s) since 2026-11-02" in html and "claims / m / accuracy" in html
    assert "claims: primary metric by night" in html and html.count('class="regression"') == 1
    dom, console = load_page(report, tmp_path / "profile")
    assert console == []
    charts = dict(re.findall(r'data-(charts|charts-drawn)="(\d+)"', re.search(r"<body[^>]*>", dom).group(0)))
    assert int(charts["charts"]) > 0 and charts["charts-drawn"] == charts["charts"]


def test_a_night_with_a_failed_stage_exits_1_and_is_not_recorded(inputs, capsys, monkeypatch):
    from stages.kinds.qa import OpenQA

    def broken_match(self, normalized, params):
        raise RuntimeError("matcher exploded")

    predict(inputs)
    monkeypatch.setattr(OpenQA, "match", broken_match)
    assert main(["nightly", "--date", "2026-11-01", "--inputs", str(inputs),
                 "--outputs", str(inputs.parent / "outputs")]) == 1
    err = capsys.readouterr().err
    assert "FAILED B4 / capitals / m: RuntimeError: matcher exploded" in err and "2026-11-01 not recorded" in err
    assert not (inputs.parent / "outputs" / "nightly" / "history.parquet").exists()


def test_a_broken_dataset_toml_fails_that_dataset_and_the_night_goes_on(inputs, capsys):
    predict(inputs)
    (inputs / "claims" / "dataset.toml").write_text('kind = "fact_verification"\n[nightly]\nalpha = 2.0\n')
    code, out = nightly(inputs, "2026-11-01", capsys)
    assert code == 1 and "capitals" in out  # the other dataset ran
    assert not (inputs.parent / "outputs" / "nightly" / "2026-11-01" / "claims").exists()


def test_nightly_settings_come_from_dataset_toml(inputs, capsys):
    predict(inputs)
    assert nightly(inputs, "2026-11-01", capsys)[0] == 0
    (inputs / "claims" / "dataset.toml").write_text('kind = "fact_verification"\n[nightly]\nmin_drop = 0.2\n')
    predict(inputs, wrong_claims=30)
    code, out = nightly(inputs, "2026-11-02", capsys)
    assert code == 0 and "drop 0.1500 within 0.2" in (inputs.parent / "outputs/nightly/2026-11-02/regressions.json"
                                                       ).read_text()


def test_bad_date_is_a_usage_error(inputs, capsys):
    predict(inputs)
    assert main(["nightly", "--date", "2026-13-01", "--inputs", str(inputs)]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_every_demo_kind_goes_through_two_nights_unchanged(tmp_path, capsys):

    demo = DEMO_INPUTS
    for night in ("2026-11-01", "2026-11-02"):
        assert main(["nightly", "--date", night, "--inputs", str(demo), "--outputs", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "nightly/2026-11-02/regressions.json").read_text())
    compared = {(c["dataset"], c["metric"]) for c in result["comparisons"]}
    assert {("fact_check", "accuracy"), ("mc_mixed", "accuracy"), ("numeric_finance", "mean_overall"),
            ("peppa_dialogue", "combined_score"), ("qa_mixed", "f1"), ("story_annotation", "overall_score")} <= compared
    assert all(c["delta"] == 0 and c["p_value"] == 1.0 and not c["regression"] for c in result["comparisons"])
    assert "0 regression(s) against 2026-11-01" in capsys.readouterr().out
