"""Every registered kind has an item renderer for report.html, registered by its name; the kinds shown with the
plain view are named here one by one, so a new kind must choose."""
import json

from stages.kinds import get_kind, kind_names
from stages.report.explorer import explorer_items, replies_cell
from stages.report.renderers import RENDERERS, ItemRenderer, renderer_for

PLAIN = {"dialogue", "fact_verification", "instruction", "multiple_choice", "numeric", "qa"}


def _package_kinds() -> set[str]:
    """The kinds stages/kinds defines (not those a test or a docs example registers at run time)."""
    return {name for name in kind_names() if type(get_kind(name)).__module__.startswith("stages.kinds.")}


def test_every_registered_kind_has_a_renderer():
    kinds = _package_kinds()
    assert len(kinds) >= 13 and kinds <= set(RENDERERS.names())
    assert set(RENDERERS.names()) <= kinds  # no renderer for a kind that does not exist
    assert {kind for kind in kinds if RENDERERS.get(kind) is ItemRenderer} == PLAIN
    for kind in kinds - PLAIN:
        assert renderer_for(kind).view != "plain"
    assert type(renderer_for("no such kind")) is ItemRenderer  # a kind registered elsewhere is shown plain


def test_math_shows_the_answer_read_and_the_gold_as_latex():
    shown = renderer_for("math")
    assert shown.view == "math" and shown.needs_katex
    assert shown.fields({"gold": "\\frac{1}{2}", "extracted": "1/2", "how": "boxed", "status": "correct"}) == {
        "answer": "1/2", "gold": "\\frac{1}{2}", "how": "boxed"}
    assert shown.fields({"status": "missing"}) == {"answer": "", "gold": "", "how": ""}


def test_ifeval_shows_each_instructions_verdicts():
    fields = renderer_for("ifeval").fields({"instructions": ["a:one", "b:two"], "strict": [False, True],
                                            "loose": [True, True], "reasons": ["comma at 5", None]})
    assert fields == {"instructions": [{"name": "a:one", "strict": False, "loose": True, "reason": "comma at 5"},
                                       {"name": "b:two", "strict": True, "loose": True, "reason": ""}]}


def test_code_shows_the_outcome_line_the_end_of_the_output_and_tampering_signs():
    fields = renderer_for("code").fields({"outcome": "failed", "error": "AssertionError", "seconds": 0.25,
                                          "sandbox": "bubblewrap", "stdout": "y" + "x" * 300, "stderr": None,
                                          "tampering": ["sys.exit"]})
    assert fields == {"program": "", "language": "", "outcome": "failed · AssertionError · 0.25 s · sandbox bubblewrap",
                      "stdout": "…" + "x" * 300, "stderr": "", "tampering": ["sys.exit"], "checks": []}
    checks = [{"test": "line 4: assert f(1) == 2", "held": 3, "failed": 1, "error": "AssertionError"}]
    assert renderer_for("code").fields({"checks": checks})["checks"] == checks
    assert renderer_for("code").needs_highlight and not renderer_for("math").needs_highlight
    assert renderer_for("code").fields({"program": "print(1)\n"})["program"] == "print(1)\n"
    assert renderer_for("code").normalized_columns == ("program",)
    assert renderer_for("code").match_parameters == ("language",)  # B4's parameter: the grammar that highlights it
    assert renderer_for("code").fields({"language": "javascript"})["language"] == "javascript"
    assert renderer_for("code").fields({})["outcome"] == "no code"


def test_function_calling_shows_the_calls_beside_the_possible_answers():
    fields = renderer_for("function_calling").fields({
        "category": "simple_python", "valid": False, "error_type": "value_error:string",
        "reason": "'city' = 'Lyon', expected one of ['Paris', 'Paris, France']",
        "decoded": "[{'weather_current': {'city': 'Lyon'}}]",
        "answer": '[{"weather.current": {"city": ["Paris", "Paris, France"], "unit": ["celsius", ""]}}]'})
    assert fields == {"category": "simple_python", "calls": 'weather_current(city="Lyon")',
                      "answers": ['weather.current(city="Paris" | "Paris, France", unit="celsius" optional)'],
                      "verdict": "value_error:string: 'city' = 'Lyon', expected one of ['Paris', 'Paris, France']",
                      "reply": 'weather_current(city="Lyon")'}
    assert renderer_for("function_calling").fields({"valid": True, "answer": "not json"})["answers"] == ["not json"]
    two = renderer_for("function_calling").fields({"decoded": "[{'f': {'x': [1, 2], 'y': 'é'}}, {'g': {}}]"})
    assert two["reply"] == two["calls"] == 'f(x=[1, 2], y="é"); g()'
    assert renderer_for("function_calling").fields({"decoded": "[]"})["reply"] == "no call"
    odd = renderer_for("function_calling").fields({"decoded": "[{'f': {'x': Decimal('4')}}]"})
    assert odd["calls"] == "[{'f': {'x': Decimal('4')}}]" and "reply" not in odd  # not literals: shown as they are
    assert renderer_for("function_calling").normalized_columns == ("answer", "messages")


def test_loglikelihood_shows_each_choice_its_loglikelihood_and_what_each_figure_picked():
    fields = renderer_for("loglikelihood").fields({"loglikelihoods": [-4.0, -6.0], "chosen": 0, "chosen_norm": 1,
                                                   "gold": 1, "choices": [" a", " bbbbbb"]})
    assert fields == {"choices": [
        {"text": " a", "loglikelihood": -4.0, "per_char": -2.0, "acc": True, "acc_norm": False, "gold": False},
        {"text": " bbbbbb", "loglikelihood": -6.0, "per_char": -6.0 / 7, "acc": False, "acc_norm": True,
         "gold": True}],
        "reply": 'chose "a" (-4.000); per character "bbbbbb" (-0.8571)'}
    greedy = renderer_for("loglikelihood").fields({"loglikelihoods": [-1.0, -6.0], "chosen": 0, "chosen_norm": 0,
                                                   "gold": 1, "choices": [" a", " b"], "greedy": [False, True]})
    assert greedy["reply"] == 'chose "a" (-1.000, not greedy)'
    assert renderer_for("loglikelihood").fields({"loglikelihoods": None, "choices": ["a", "b"]}) == {
        "reply": "no loglikelihood for each of its 2 choices"}
    assert renderer_for("loglikelihood").fields({"loglikelihood": -3.0, "loglikelihoods": [-3.0]}) == {
        "reply": "loglikelihood -3.000 over the document"}
    assert renderer_for("loglikelihood").fields({"loglikelihood": None, "loglikelihoods": None}) == {}


def test_annotation_shows_the_documents_labels_not_its_json():
    document = {"characters": [{"name": "后羿", "alias": ["羿"]}, {"name": "嫦娥"}], "narrative_events": [
        {"id": "e1", "text_span": {"start": 0, "end": 4, "text": "射下太阳"},
         "action_layer": {"category": "conflict", "type": "attack", "context": "", "status": "success"},
         "relationships": [{"agent": "后羿", "target": "太阳", "relationship_level1": "conflict",
                            "relationship_level2": "enemy", "sentiment": ["hostility"]}]},
        {"id": "e2", "text_span": None, "action_layer": None, "relationships": None}]}
    gold = {"narrative_events": [{"id": "g1"}, {"id": "g2"}]}
    fields = renderer_for("annotation").fields({
        "prediction": json.dumps(document), "ground_truth": json.dumps(gold),
        "alignment": json.dumps({"pairs": [[0, 0, "span"]], "missing": [1], "extra": [1]})})
    assert fields == {
        "characters": ["后羿 (羿)", "嫦娥"],
        "events": [{"id": "e1", "span": "射下太阳", "labels": "conflict/attack/success",
                    "relationships": ["后羿 → 太阳 conflict/enemy (hostility)"], "gold": "g1"},
                   {"id": "e2", "span": "", "labels": "", "relationships": [], "gold": ""}],
        "events_total": 2, "missing": ["g2"],
        "reply": "2 events, 2 characters (后羿 (羿), 嫦娥); e1 conflict/attack/success 后羿 → 太阳 conflict/enemy "
                 "(hostility); e2"}
    assert renderer_for("annotation").fields({"prediction": "not json"}) == {}
    assert renderer_for("annotation").view == "labels"


def test_a_renderers_readable_reply_stands_in_the_cell_and_the_raw_reply_is_kept_beside_it():
    fields = renderer_for("loglikelihood").fields({"loglikelihoods": [-2.0, -3.0], "chosen": 0, "chosen_norm": 0,
                                                   "gold": 0, "choices": ["blue", "red"]})
    data = explorer_items(["0"], ["sky?"], [0], {"m": ["[-2.0, -3.0]"]}, {"m": [("correct", "", fields)]},
                          {"m": [1.0]}, 1, 0, [])
    cell = data["items"][0]["cells"]["m"]
    assert (cell["prediction"], cell["raw"]) == ('chose "blue" (-2.000)', "[-2.0, -3.0]")
    assert "reply" not in cell["fields"]
    plain = explorer_items(["0"], ["q"], ["a"], {"m": ["a"]}, {"m": [("correct", "", {})]}, {"m": [1.0]}, 1, 0, [])
    assert "raw" not in plain["items"][0]["cells"]["m"]


def test_tau2_shows_each_trial_as_a_transcript_with_its_reward_components_and_database_difference():
    evaluation = {"trial": 0, "reward": 0.0, "status": "scored", "termination_reason": "user_stop", "note": "0 by DB",
                  "components": {"DB": {"value": 0.0, "reason": "differs at tasks/task_2"}},
                  "db_difference": ["tasks/task_2"]}
    messages = [{"role": "user", "content": "H" * 301},
                {"role": "assistant", "content": None,
                 "tool_calls": [{"id": "c0", "name": "a", "arguments": {"x": 1}}, {"id": "c1", "name": "b"}]},
                {"role": "tool", "id": "c1", "content": "from b", "error": True},
                {"role": "tool", "id": "c0", "content": "r" * 301},
                {"role": "tool", "id": "c9", "content": "nobody's"}]
    fields = renderer_for("tau2").fields({"evaluations": json.dumps([evaluation]),
                                          "trials": json.dumps([{"messages": messages}])})
    assert fields == {"trials": [{
        "trial": 0, "reward": 0.0, "status": "scored", "termination_reason": "user_stop", "note": "0 by DB",
        "components": [{"name": "DB", "value": 0.0, "reason": "differs at tasks/task_2"}],
        "db_difference": ["tasks/task_2"],
        "turns": [{"role": "user", "text": "H" * 300 + "…", "calls": []},
                  {"role": "assistant", "text": "", "calls": [
                      {"name": "a", "arguments": '{"x": 1}', "result": "r" * 160 + "…", "error": False},
                      {"name": "b", "arguments": "{}", "result": "from b", "error": True}]},
                  {"role": "tool", "text": "nobody's", "calls": []}]}],
        "reply": "trial 0: user_stop, reward 0, 3 turns"}
    assert renderer_for("tau2").normalized_columns == ("trials",)
    assert renderer_for("tau2").fields({"evaluations": "[]", "trials": "[]"}) == {"trials": []}


def test_a_bfcl_multi_turn_episode_shows_each_turns_user_messages_calls_results_and_verdict():
    turns = [{"steps": [[{"call": "ls()", "result": "x" * 301}], [{"call": "cd(folder='a')", "result": None}]],
              "expected": ["ls()"], "verdict": "right", "said": ["Listed."]},
             {"steps": [], "expected": [], "verdict": "no call expected"}]
    messages = json.dumps([[{"role": "user", "content": "List it."}], []])
    fields = renderer_for("function_calling").fields({"category": "multi_turn_base", "valid": True,
                                                      "turns": json.dumps(turns), "messages": messages})
    assert fields == {"category": "multi_turn_base", "verdict": "valid", "turns": [
        {"user": ["List it."], "steps": [[{"call": "ls()", "result": "x" * 300 + "…"}],
                                          [{"call": "cd(folder='a')", "result": None}]],
         "said": ["Listed."], "expected": ["ls()"], "verdict": "right"},
        {"user": [], "steps": [], "said": [], "expected": [], "verdict": "no call expected"}],
        "reply": "turn 1: ls(), cd(folder='a'); turn 2: no call"}


def test_a_tau2_items_explorer_cell_shows_its_trials_termination_and_reward_not_their_json():
    evaluations = [{"trial": 0, "reward": 1.0, "status": "scored", "termination_reason": "agent_stop"},
                   {"trial": 1, "reward": None, "status": "not scored", "termination_reason": "max_steps"}]
    trials = [{"trial": 0, "messages": [{"role": "assistant", "content": "Hi"}, {"role": "user", "content": "Bye"}]},
              {"trial": 1, "messages": []}]
    fields = renderer_for("tau2").fields({"evaluations": json.dumps(evaluations), "trials": json.dumps(trials)})
    data = explorer_items(["t1"], ["task"], [None], {"m": [json.dumps(trials)]}, {"m": [("correct", "", fields)]},
                          {"m": [1.0]}, 1, 0, [])
    cell = data["items"][0]["cells"]["m"]
    assert cell["prediction"] == "trial 0: agent_stop, reward 1, 2 turns; trial 1: max_steps, not scored, 0 turns"
    assert "reply" not in cell["fields"] and [t["trial"] for t in cell["fields"]["trials"]] == [0, 1]
    replies = replies_cell([json.dumps(trials), None], [(0, "correct", "", fields, None), (1, "", "", {}, None)], 1.0)
    assert replies["replies"][0]["prediction"] == cell["prediction"] and "reply" not in replies["replies"][0]["fields"]
    assert replies["replies"][1]["status"] == "missing"


def test_tau2s_section_shows_pass_k_with_the_runs_user_simulator_beside_the_published_board(tmp_path):
    import html
    import re

    from stages.kinds.tau2.leaderboard import CAVEAT, read_board
    from stages.report.html import render_html_report

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "submission.json").write_text(json.dumps({
        "model_name": "A", "results": {"retail": {"pass_1": 50.0, "pass_2": 25.0}},
        "methodology": {"tau2_bench_version": "1.0.1", "user_simulator": "gpt-4.1"}}))
    (tmp_path / "manifest.json").write_text(json.dumps({"submissions": ["a"]}))
    board = read_board(tmp_path, "retail")
    models = {"asked": {"pass_hat_k": {"1": 0.75, "2": 0.5}, "intervals": {}, "avg_reward": 0.75, "tasks": 2,
                        "trials": 4, "boards": [board], "pass_hat_1": 0.75},
              "imported": {"pass_hat_k": {"1": 0.5}, "intervals": {}, "avg_reward": 0.5, "tasks": 2, "trials": 2,
                           "boards": [board], "pass_hat_1": 0.5}}
    report = {"dataset": "retail_run", "kind": "tau2", "models": models, "set_aside": {}, "problems": [],
              "comparison": {"primary_metric": "pass_hat_1"},
              "generation": {"asked": {"answers": 2, "failures": {}, "user": {"answers": 9, "model": "qwen3-8b"}}}}
    own, published = renderer_for("tau2").figure_tables(report)
    assert own["columns"] == ["model", "user simulator", "tasks", "trials", "pass^1", "pass^2", "pass^3", "pass^4",
                              "avg reward"]
    assert [row[:4] for row in own["rows"]] == [["asked", "qwen3-8b", 2, 4], ["imported", "not recorded", 2, 2]]
    assert own["notes"] == ["asked: pass^k up to k = 2 only (the board's: 4 trials)",
                            "asked: user simulator qwen3-8b, not the board's gpt-4.1: not comparable",
                            "imported: pass^k up to k = 1 only (the board's: 4 trials)",
                            "imported: user simulator not recorded (trials not asked live): the board's is gpt-4.1"]
    assert [row[:3] for row in published["rows"]] == [["asked (this run)", "—", "qwen3-8b"],
                                                      ["imported (this run)", "—", "not recorded"],
                                                      ["a", "1.0.1", "gpt-4.1"]]
    assert published["notes"] == [CAVEAT]
    page = render_html_report([report], {"title": "t"})
    tables = re.findall(r'<table class="sortable kind-figures">(.*?)</table>', page, re.S)
    cells = [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
             for table in tables for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)]
    assert cells[0] == ["asked", "qwen3-8b", "2", "4", "75.0%", "50.0%", "–", "–", "75.0%"]
    assert cells[2][:3] == ["asked (this run)", "—", "qwen3-8b"]
    assert cells[4] == ["a", "1.0.1", "gpt-4.1", "50.0%", "25.0%", "–", "–"]
    assert "published τ²-bench board, retail (1 submissions)" in page
    assert renderer_for("qa").figure_tables(report) == []


def test_function_callings_section_shows_bfcls_summary_columns_with_why_one_is_n_a():
    from stages.kinds.function_calling.kind import SUMMARY_COLUMNS

    summary = {name: {"value": None, "reason": f"{name} missing"} for name, _ in SUMMARY_COLUMNS}
    summary["non_live_ast"] = {"value": 0.8125, "reason": None}
    report = {"dataset": "bfcl", "kind": "function_calling", "comparison": {"primary_metric": "accuracy"},
              "models": {"m": {"rows": 1234, "accuracy": 0.5, "answer_rate": 1.0, "by_category": {},
                               "summary": summary, "error_types": {}}}, "set_aside": {}, "problems": []}
    (table,) = renderer_for("function_calling").figure_tables(report)
    assert table["columns"] == ["model", "items", "all items", "Non-Live AST", "Live", "Multi Turn", "Relevance",
                                "Irrelevance", "Overall"]
    assert table["rows"] == [["m", 1234, {"share": 0.5, "interval": None}, {"share": 0.8125, "interval": None},
                              "n/a", "n/a", "n/a", "n/a", "n/a"]]
    assert table["notes"] == ["n/a — Irrelevance: irrelevance missing", "n/a — Live: live missing",
                              "n/a — Multi Turn: multi_turn missing", "n/a — Overall: overall missing",
                              "n/a — Relevance: relevance missing"]
    from stages.report.html import render_html_report

    page = render_html_report([report], {"title": "t"})
    assert ('<td class="num" data-value="1234">1,234</td><td class="num" data-value="0.5">50.0%</td>'
            '<td class="num" data-value="0.8125">81.2%</td><td>n/a</td>') in page


def test_a_function_calling_or_tau2_gold_is_drawn_as_calls_and_other_kinds_golds_are_shown_as_stored():
    answer = json.dumps([{"weather.current": {"city": ["Lyon", "lyon"], "unit": ["celsius", ""]}}])
    data = explorer_items(["0"], ["q"], [[answer]], {"m": ["x"]}, {"m": [("wrong", "", {})]}, {"m": [0.0]}, 1, 1, [],
                          kind="function_calling")
    assert data["items"][0]["gold"] == 'weather.current(city="Lyon" | "lyon", unit="celsius" optional)'
    assert renderer_for("function_calling").gold([json.dumps([["ls()"], []])]) == ["turn 1: ls(); turn 2: no call"]
    assert renderer_for("function_calling").gold(["no call"]) == ["no call"]
    assert renderer_for("tau2").gold(['create_task({"user_id": "u1", "title": "a; b)"}); done({})', "(no actions)"]) \
        == ['create_task(user_id="u1", title="a; b)"); done()', "(no actions)"]
    assert renderer_for("tau2").gold(['f({"a": 1}) and more']) == ['f({"a": 1}) and more']
    plain = explorer_items(["0"], ["q"], [[answer]], {"m": ["x"]}, {"m": [("wrong", "", {})]}, {"m": [0.0]}, 1, 1, [])
    assert plain["items"][0]["gold"] == answer and renderer_for("qa").gold(["Paris"]) == ["Paris"]
