"""#78: a judge that does not answer is an outage, not a verdict: items whose every judge call failed are not scored,
a model with too many of them is not published, and the last line says to restart the judge's server and rerun."""
from stages.io.artifacts import read_artifact_json
from tests.pipeline.judge.capitals import capitals_dataset
from tests.pipeline.workspace import run


def test_a_judge_that_is_down_leaves_the_items_not_scored_until_a_rerun_judges_them(tmp_path, judge_server, capsys,
                                                                                     killed_server):
    gone = killed_server()  # every judge call is refused
    workspace = capitals_dataset(tmp_path, gone, 'criteria = ["correct"]\n')
    assert run(workspace) == 1
    err = capsys.readouterr().err
    assert ("model m: not published: 5 of 5 items not scored: the judge did not answer (connection refused) × 5 "
            "(share 1 > max_unscored_share 0.02)") in err
    assert err.splitlines()[-1] == ("evalpipe: what to do: restart the judge's server and rerun `evalpipe run`: the "
                                    "journal asks only what is missing")
    summary = read_artifact_json(workspace / "outputs" / "B6_summary.json")
    assert summary["rows"][0]["value"] is None and summary["rows"][0]["published"] is False

    toml = workspace / "inputs" / "capitals" / "dataset.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(gone.url, judge_server.url), encoding="utf-8")
    assert run(workspace) == 0
    report = read_artifact_json(workspace / "outputs" / "capitals" / "B6_report.json")["report"]
    assert "unscored" not in report  # q4's reply that did not parse is the parse rate's business, not an outage
    assert report["judge"]["models"]["m"]["correct"]["n"] == 4
