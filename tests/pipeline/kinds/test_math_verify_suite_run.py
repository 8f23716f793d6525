"""Math-Verify's own 169 regression cases run as a math dataset (B1→B6): every row's verdict is the case's
`expected`, except the deliberate differences (tests/stages/kinds/math/math_verify_suite.py, docs/kinds/math.md)."""
import pytest

from stages.io.artifacts import read_artifact_json, read_columns
from tests.pipeline.workspace import run, write_jsonl
from tests.stages.kinds.math.math_verify_suite import DELIBERATE, intended_verdict, load_cases

pytest.importorskip("math_verify")


def test_the_cases_as_a_dataset_agree_with_math_verify_but_for_the_deliberate_differences(tmp_path, real_data):
    cases = load_cases()
    folder = tmp_path / "inputs" / "math_verify_cases"
    write_jsonl(folder / "questions.jsonl", [{"id": str(i), "question": case["group"], "answer": case["gold"]}
                                             for i, case in enumerate(cases)])
    write_jsonl(folder / "predictions" / "math_verify.jsonl", [{"id": str(i), "prediction": case["pred"]}
                                                               for i, case in enumerate(cases)])
    (folder / "dataset.toml").write_text('kind = "math"\n')
    assert run(tmp_path) == 0
    matched = read_columns(tmp_path / "outputs" / "math_verify_cases" / "math_verify" / "B4_matches.json")
    verdicts = dict(zip(matched["id"], matched["correct"]))
    assert len(verdicts) == len(cases) == 169
    assert [int(verdicts[str(i)]) for i in range(len(cases))] == [intended_verdict(case) for case in cases]
    agreeing = sum(int(verdicts[str(i)]) == case["expected"] for i, case in enumerate(cases))
    assert agreeing == len(cases) - len(DELIBERATE)
    report = read_artifact_json(tmp_path / "outputs" / "math_verify_cases" / "B6_report.json")["report"]
    assert report["models"]["math_verify"]["accuracy"] == pytest.approx(
        sum(intended_verdict(case) for case in cases) / len(cases))
