"""The console's table of the run: qa's exact match and F1 on one line, ifeval's four headline metrics a line each so
the table stays within 160 columns, the set-aside counts once per dataset × model."""
from stages.report.aggregate import build_summary, render_summary

IFEVAL = {"prompt_level_strict": 0.7, "instruction_level_strict": 0.7763, "prompt_level_loose": 0.74,
          "instruction_level_loose": 0.8158, "rows": 541}


def _report(dataset, kind, metrics, primary):
    return {"dataset": dataset, "kind": kind, "models": {"Qwen3-8B-thinking-2507-FP8": metrics},
            "comparison": {"primary_metric": primary},
            "set_aside": {"Qwen3-8B-thinking-2507-FP8": {"question_rows_rejected": 2, "prediction_rows_rejected": 1,
                                                         "missing_predictions": 3}}}


def test_ifevals_four_metrics_take_a_line_each_and_the_table_stays_within_160_columns():
    table = render_summary(build_summary([
        _report("ifeval_reasoning_live", "ifeval", IFEVAL, "prompt_level_strict"),
        _report("squad_v1_dev", "qa", {"exact_match": 0.5, "f1": 0.6972, "rows": 12}, "f1")]))
    lines = table.splitlines()
    assert max(len(line) for line in lines) <= 160
    cells = [line.split() for line in lines[2:]]
    assert cells[0] == ["ifeval_reasoning_live", "Qwen3-8B-thinking-2507-FP8", "prompt_level_strict", "0.7000", "541",
                        "2", "/", "1", "/", "3"]
    assert cells[1:4] == [["instruction_level_strict", "0.7763"], ["prompt_level_loose", "0.7400"],
                          ["instruction_level_loose", "0.8158"]]
    assert cells[4] == ["squad_v1_dev", "Qwen3-8B-thinking-2507-FP8", "exact_match", "/", "f1", "0.5000", "/",
                        "0.6972", "12", "2", "/", "1", "/", "3"]


def test_set_aside_commands_name_the_runs_outputs_within_160_columns():
    from stages.report.aggregate import set_aside_lines

    report = {"dataset": "d", "set_aside": {"m": {"question_rows_rejected": 2, "prediction_rows_rejected": 1}}}
    assert set_aside_lines(report) == ["d: 2 question row(s) set aside: evalpipe show B1 --dataset d --rejects",
                                       "d / m: 1 prediction row(s) set aside: evalpipe show B2 --dataset d --model m "
                                       "--rejects"]
    assert set_aside_lines(report, "/runs/night")[0].endswith("--rejects --outputs /runs/night")
    long = "/" + "x" * 150
    assert [line.rsplit(" --outputs ", 1)[1] for line in set_aside_lines(report, long)] == ["OUTPUTS", "OUTPUTS"]
