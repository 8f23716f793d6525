"""Alarms people can trust: a slow slide caught against a pinned baseline, `evalpipe compare` between any two runs,
and changed scoring parameters listed as not comparable instead of flagged."""
import json

from pipeline.cli import main
from tests.pipeline.nightly.claims import CLAIMS, history, nightly, predict


def _outputs(inputs):
    return inputs.parent / "outputs"


def test_a_slow_slide_is_caught_against_the_baseline(inputs, capsys):
    # each night 3 more claims of 200 go wrong (1.5 points): never a regression night over night (McNemar p = 1/8,
    # and below min_drop), but against the baseline night the drop grows until it is large and significant
    predict(inputs)
    assert nightly(inputs, "2026-11-01", capsys)[0] == 0
    drifted = None
    for night in range(2, 9):
        predict(inputs, wrong_claims=3 * (night - 1))
        date = f"2026-11-0{night}"
        code = main(["nightly", "--date", date, "--baseline", "2026-11-01", "--inputs", str(inputs),
                     "--outputs", str(_outputs(inputs))])
        out = capsys.readouterr().out
        result = json.loads((_outputs(inputs) / f"nightly/{date}/regressions.json").read_text())
        assert result["regressions"] == [], out  # never night over night
        if code == 3:
            drifted = night
            assert "DRIFT claims / m / accuracy: 1.0000 → " in out
            assert result["drifts"][0]["dataset"] == "claims" and result["baseline"] == "2026-11-01"
            break
        assert code == 0, out
    # two nights on: 6 claims lost, 3 points > min_drop, McNemar p = 2^-6, × 3 tests (BH, rank 1) = 0.047 < 0.05
    assert drifted == 3
    html = (_outputs(inputs) / "nightly/2026-11-03/report.html").read_text(encoding="utf-8")
    assert "Compared with baseline 2026-11-01" in html and "1 drift(s) since baseline 2026-11-01" in html
    assert "adjusted p" in html


def test_a_baseline_that_is_not_a_night_is_a_usage_error(inputs, capsys):
    predict(inputs)
    assert nightly(inputs, "2026-11-01", capsys)[0] == 0
    outputs = str(_outputs(inputs))
    assert main(["nightly", "--date", "2026-11-02", "--baseline", "2026-10-01", "--inputs", str(inputs),
                 "--outputs", outputs]) == 2
    assert "baseline 2026-10-01: no such night" in capsys.readouterr().err
    assert main(["nightly", "--date", "2026-11-02", "--baseline", "2026-11-02", "--inputs", str(inputs),
                 "--outputs", outputs]) == 2
    (inputs / "claims" / "dataset.toml").write_text('kind = "fact_verification"\n[nightly]\ncorrection = "holm"\n')
    assert main(["nightly", "--date", "2026-11-02", "--inputs", str(inputs), "--outputs", outputs]) == 1
    said = capsys.readouterr()
    assert f"PROBLEM claims: {inputs / 'claims' / 'dataset.toml'}: [nightly] correction is a setting of the whole " \
           "night" in said.err and "capitals" in said.out  # that dataset fails; the others run


def test_compare_two_runs_and_two_nights(inputs, tmp_path, capsys):
    predict(inputs)
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "before")]) == 0
    predict(inputs, wrong_claims=30)
    assert main(["run", "--inputs", str(inputs), "--outputs", str(tmp_path / "after")]) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "before"), str(tmp_path / "after")]) == 3
    out = capsys.readouterr().out
    assert "WORSE claims / m / accuracy: 1.0000 → 0.8500 (-0.1500" in out
    assert "compare: 1 significant drop(s) against A" in out
    assert main(["compare", str(tmp_path / "before"), str(tmp_path / "before"), "--json"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert same["correction"] == "bh" and {c["metric"] for c in same["comparisons"]} == {"accuracy", "exact_match", "f1"}
    assert all(c["delta"] == 0 and not c["regression"] for c in same["comparisons"])
    # nights by date
    predict(inputs)
    assert nightly(inputs, "2026-11-01", capsys)[0] == 0
    predict(inputs, wrong_claims=30)
    assert nightly(inputs, "2026-11-02", capsys)[0] == 3
    assert main(["compare", "2026-11-01", "2026-11-02", "--outputs", str(_outputs(inputs)), "--json"]) == 3
    flagged = [c for c in json.loads(capsys.readouterr().out)["comparisons"] if c["regression"]]
    assert [(c["dataset"], c["metric"], c["paired_items"]) for c in flagged] == [("claims", "accuracy", CLAIMS)]
    assert main(["compare", str(tmp_path / "nowhere"), str(tmp_path / "after")]) == 2


def test_changed_scoring_parameters_are_not_comparable(inputs, capsys):
    predict(inputs)
    assert nightly(inputs, "2026-11-01", capsys)[0] == 0
    predict(inputs, wrong_questions=20)  # capitals drops by half...
    (inputs / "capitals" / "dataset.toml").write_text('[params]\npartial_f1_threshold = 0.9\n')  # ...and is rescored
    code, out = nightly(inputs, "2026-11-02", capsys)
    assert code == 0, out
    result = json.loads((_outputs(inputs) / "nightly/2026-11-02/regressions.json").read_text())
    capitals = [c for c in result["comparisons"] if c["dataset"] == "capitals"]
    assert capitals and all(c["comparable"] is False and not c["regression"] for c in capitals)
    assert capitals[0]["reason"] == "not comparable: B4 partial_f1_threshold 0.5 → 0.9"
    assert "2 not comparable (scoring parameters, judge or rubric changed)" in out
    assert len(history(inputs)) > 0
