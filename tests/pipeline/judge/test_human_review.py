"""The human-annotation round trip: run a dialogue dataset, fill the CSV in as raters would, import it."""
import csv
import io
import json
import shutil

from pipeline.cli import main
from tests.pipeline.workspace import DEMO_INPUTS

DEMO = DEMO_INPUTS / "peppa_dialogue"


def test_filled_csv_imports_with_agreement(tmp_path, capsys):
    shutil.copytree(DEMO, tmp_path / "inputs" / "peppa_dialogue")
    outputs = tmp_path / "outputs"
    params = ["--inputs", str(tmp_path / "inputs"), "--outputs", str(outputs)]
    assert main(["run", *params]) == 0
    exported = outputs / "peppa_dialogue" / "B6_human_annotation.csv"
    rows = list(csv.DictReader(io.StringIO(exported.read_bytes().decode("utf-8-sig"))))
    for row in rows:  # raters: model_a right, model_b wrong; one typo'd label; one row left blank
        row["content_correct"] = "是" if row["model"] == "model_a" else "否"
    rows[0]["style_consistent"] = "perhaps"
    rows[1]["content_correct"] = ""  # so 10 rows carry content_correct: model_a 4 yes, model_b 6 no
    filled = outputs / "peppa_dialogue" / "filled.csv"
    with open(filled, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    capsys.readouterr()
    assert main(["annotations", "import", str(filled)]) == 0
    assert "content_correct: 10 labelled, 4 yes" in capsys.readouterr().out
    result = json.loads((outputs / "peppa_dialogue" / "B6_human_agreement.json").read_text())
    assert [r["reason"] for r in result["rejects"]] == ["cannot read 'perhaps' as a yes/no label"]
    content = result["labels"]["content_correct"]
    assert content["metrics"]["combined_score"]["roc_auc"] == 1.0  # model_a's answers all beat model_b's
    assert content["combined_score_threshold"]["accuracy"] == 1.0


def test_import_without_artifacts_is_a_usage_error(tmp_path, capsys):
    folder = tmp_path / "outputs" / "peppa_dialogue"
    folder.mkdir(parents=True)
    (folder / "x.csv").write_text("scene,dialogue_index,model,content_correct,style_consistent\ns,0,m,1,\n",
                                  encoding="utf-8")
    assert main(["annotations", "import", str(folder / "x.csv")]) == 2
    assert "no B5 artifact for model 'm'" in capsys.readouterr().err
