"""Writes the replies the function_calling tests score and bfcl-eval's own verdict on each (not part of the suite).

    python3 -m venv --system-site-packages /work/venvs/bfcl
    /work/venvs/bfcl/bin/pip install --no-deps bfcl-eval==2026.3.23 mpmath
    /work/venvs/bfcl/bin/pip install tree_sitter==0.21.3 tree-sitter-java==0.21.0 tree-sitter-javascript==0.21.4 \
        filelock==3.20.0 tenacity python-dotenv openai overrides
    /work/venvs/bfcl/bin/python tests/stages/kinds/function_calling/make_bfcl_reference.py
    /work/venvs/bfcl/bin/python tests/stages/kinds/function_calling/make_bfcl_reference.py --result-folder
    /work/venvs/bfcl/bin/python tests/stages/kinds/function_calling/make_bfcl_reference.py --compare-all

For the first items of every single-turn BFCL v4 category (../shared/data/real/bfcl), replies as a prompting model
writes them (text: Python, Java or JavaScript call syntax) and as a function-calling model's results are kept
(lists of {name with dots as underscores: "<JSON arguments>"}): the possible answer itself, then perturbed — another
function name, a required parameter left out, a parameter outside the doc, a value of another type, a string in
other case and spacing, another string, the calls in reverse order, a call dropped or repeated, no call, broken
syntax. Each reply is written as bfcl-eval writes results ({"id", "result"}, with the model and case)
(bfcl_reference/cases.jsonl beside this script; the items stay in ../shared/data/real, read by id), with
bfcl-eval's verdict (valid, error_type) from its own evaluation functions
(eval_runner._evaluate_single_ast_entry / _evaluate_single_relevance_entry through its OpenAI handler), so the tests
compare evalpipe's verdict with what bfcl-eval itself said. ast_checker imports constants.model_config, which imports
every provider's client; it is given a stand-in holding only the two models' underscore_to_dot. With --compare-all
--result-folder it writes a
bfcl-eval result folder from those replies and bfcl-eval's score files for it (bfcl_reference/run/). With
--compare-all it writes nothing: it scores the same perturbations of every item of every category, multi-turn included
with bfcl-eval and with evalpipe and prints where they differ."""
from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[3].parent / "shared" / "data" / "real" / "bfcl"
OUT = HERE / "bfcl_reference"
ITEMS_PER_CATEGORY = 6
MODELS = {"prompting-model": False, "fc-model": True}  # name → function-calling (underscore_to_dot)
CATEGORIES = ("simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
              "irrelevance", "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
              "live_irrelevance", "live_relevance")


def _bfcl():
    config = types.ModuleType("bfcl_eval.constants.model_config")
    config.MODEL_CONFIG_MAPPING = {}  # filled below, once the handler's class is imported
    sys.modules["bfcl_eval.constants.model_config"] = config
    from bfcl_eval.constants.enums import Language, ReturnFormat
    from bfcl_eval.eval_checker import eval_runner
    from bfcl_eval.model_handler.api_inference.openai_completion import OpenAICompletionsHandler

    config.MODEL_CONFIG_MAPPING.update({name: types.SimpleNamespace(
        model_name=name, display_name=name, url="", org="", license="", input_price=None, output_price=None,
        is_fc_model=fc, underscore_to_dot=fc, model_handler=OpenAICompletionsHandler) for name, fc in MODELS.items()})
    os.environ.setdefault("OPENAI_API_KEY", "unused")  # the handler builds a client; it is never called

    handlers = {name: OpenAICompletionsHandler(model_name=name, temperature=0, registry_name=name, is_fc_model=fc)
                for name, fc in MODELS.items()}
    return eval_runner, handlers, Language, ReturnFormat


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _first(values: list):
    return next((value for value in values if value != ""), None)


def _chosen(answer_call: dict) -> tuple[str, dict]:
    (name, params), = answer_call.items()
    args = {}
    for param, values in params.items():
        value = _first(values)
        if value is not None:
            args[param] = _plain(value)
    return name, args


def _plain(value):
    """A possible answer's value as a reply gives it (a dict of acceptable lists → a dict of first choices)."""
    if isinstance(value, dict):
        return {key: _plain(_first(options) if isinstance(options, list) else options) for key, options in
                value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _source(value, language: str, spec: dict) -> str:
    """A value as Java or JavaScript source text, of the doc's type."""
    kind = spec.get("type")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if kind == "any" else json.dumps(value)
    if isinstance(value, (int, float)):
        suffix = "L" if kind == "long" else "f" if kind == "float" and language == "java" else ""
        return f"{value}{suffix}"
    if isinstance(value, list):
        inner = ", ".join(_source(v, language, spec.get("items", {})) for v in value)
        if language == "javascript":
            return f"[{inner}]"
        if kind == "Array":
            return f"new {spec.get('items', {}).get('type', 'Object')}[]{{{inner}}}"
        return f"new ArrayList<>(Arrays.asList({inner}))"
    if isinstance(value, dict):
        if language == "javascript":
            return "{" + ", ".join(f"{k}: {_source(v, language, {})}" for k, v in value.items()) + "}"
        puts = " ".join(f'put("{k}", {_source(v, language, {})});' for k, v in value.items())
        return f"new HashMap<String, Object>() {{{{ {puts} }}}}"
    return str(value)


def _render(calls: list[tuple[str, dict]], docs: dict, language: str, fc: bool):
    """The calls as a prompting model's text or a function-calling model's result list."""
    if fc:
        return [{name.replace(".", "_"): json.dumps(
            {k: (_source(v, language, docs.get(name, {}).get(k, {})) if language != "python" and not
                 isinstance(v, _Raw) else getattr(v, "value", v)) for k, v in args.items()})} for name, args in calls]
    texts = []
    for name, args in calls:
        if language == "python":
            rendered = ", ".join(f"{k}={getattr(v, 'value', v)!r}" for k, v in args.items())
        else:
            rendered = ", ".join(f"{k}={json.dumps(v.value) if isinstance(v, _Raw) else _source(v, language, docs.get(name, {}).get(k, {}))}"
                                 for k, v in args.items())
        texts.append(f"{name}({rendered})")
    return "[" + ", ".join(texts) + "]"


class _Raw:
    """A value written as it is, whatever the language (a wrong type)."""

    def __init__(self, value):
        self.value = value


def _perturbed(calls: list[tuple[str, dict]], doc_by_name: dict) -> dict[str, list[tuple[str, dict]]]:
    name, args = calls[0]
    doc = doc_by_name.get(name, {})
    required = doc.get("parameters", {}).get("required", [])
    cases = {"exact": calls, "wrong_name": [(name + "_v2", args), *calls[1:]],
             "extra_param": [(name, {**args, "unexpected_param": 1}), *calls[1:]],
             "reversed": list(reversed(calls)),
             "dropped_or_repeated": calls[:-1] if len(calls) > 1 else calls + calls}
    if required and required[0] in args:
        cases["missing_required"] = [(name, {k: v for k, v in args.items() if k != required[0]}), *calls[1:]]
    optional = [k for k in args if k not in required]
    if optional:
        cases["optional_left_out"] = [(name, {k: v for k, v in args.items() if k != optional[0]}), *calls[1:]]
    for key, value in args.items():
        if isinstance(value, str) and value:
            cases["string_case_and_spacing"] = [(name, {**args, key: value.upper().replace(" ", "  ") + " "}),
                                                *calls[1:]]
            cases["other_string"] = [(name, {**args, key: value + " elsewhere"}), *calls[1:]]
            cases["string_as_number"] = [(name, {**args, key: _Raw(7)}), *calls[1:]]
            break
    for key, value in args.items():
        if isinstance(value, bool):
            cases["bool_as_text"] = [(name, {**args, key: _Raw("yes")}), *calls[1:]]
        elif isinstance(value, (int, float)):
            cases["number_as_text"] = [(name, {**args, key: _Raw(str(value))}), *calls[1:]]
            cases["other_number"] = [(name, {**args, key: value + 1}), *calls[1:]]
            if isinstance(value, float) and value.is_integer():
                cases["int_for_float"] = [(name, {**args, key: int(value)}), *calls[1:]]
        elif isinstance(value, list) and value:
            cases["list_shortened"] = [(name, {**args, key: value[:-1]}), *calls[1:]]
        else:
            continue
        break
    return cases


def _replies(entry: dict, answer: list | None, language: str, fc: bool) -> dict[str, object]:
    doc_by_name = {doc["name"]: doc for doc in entry["function"]}
    specs = {name: doc["parameters"]["properties"] for name, doc in doc_by_name.items()}
    if answer is None:  # relevance and irrelevance: a call of the first function, or none
        doc = (entry["function"] or [{"name": "lookup", "parameters": {"properties": {}}}])[0]
        args = {param: "x" for param in doc["parameters"].get("required", [])}
        calls = [(doc["name"], args)]
    else:
        calls = [_chosen(call) for call in answer]
    replies = {case: _render(found, specs, language, fc) for case, found in _perturbed(calls, doc_by_name).items()}
    replies["no_call"] = "I cannot do that with the functions given." if not fc else "I cannot do that."
    replies["empty_list"] = [] if fc else "[]"
    exact = replies["exact"]
    if fc:
        (key, arguments), = exact[0].items()
        replies["broken_syntax"] = [{key: arguments[:-1]}]
        replies["dotted_name"] = [{(entry["function"] or [{"name": "a.b"}])[0]["name"]: arguments}]
    else:
        replies["broken_syntax"] = exact[:-2]
        replies["in_code_fence"] = "```\n" + exact + "\n```"
    return replies


MULTI_TURN = ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context")
MULTI_TURN_ITEMS = 5


def _keywords_only(call: str) -> tuple[str, dict] | None:
    """A ground-truth call text as (name, keyword arguments), None when it has positional ones."""
    import ast

    node = ast.parse(call, mode="eval").body
    if node.args:
        return None
    return node.func.id, {k.arg: ast.literal_eval(k.value) for k in node.keywords}


def _episode_replies(ground_truth: list[list[str]]) -> dict[str, object]:
    """A prompting model's multi-turn results (turns of steps of text), and one function-calling model's."""
    text = lambda calls: "[" + ", ".join(calls) + "]"  # noqa: E731
    replies = {"exact": [[text(turn)] if turn else [] for turn in ground_truth],
               "one_call_per_step": [[text([call]) for call in turn] for turn in ground_truth],
               "chatter_between_steps": [["Let me look.", text(turn), "Done."] if turn else ["Nothing to do."]
                                         for turn in ground_truth],
               "first_turn_empty": [[], *([[text(turn)] if turn else [] for turn in ground_truth[1:]])],
               "force_terminated": [[text(turn)] for turn in ground_truth[:-1]],
               "not_a_list": "I moved the file.",
               "call_repeated": [[text(turn + turn[-1:])] if turn else [] for turn in ground_truth]}
    last = max((i for i, turn in enumerate(ground_truth) if turn), default=None)
    if last is not None:
        dropped = [list(turn) for turn in ground_truth]
        dropped[last] = dropped[last][:-1]
        replies["last_call_dropped"] = [[text(turn)] if turn else [] for turn in dropped]
    for index, turn in enumerate(ground_truth):
        changed = next((call for call in turn if "='" in call), None)
        if changed is not None:
            other = [list(t) for t in ground_truth]
            other[index][turn.index(changed)] = changed.replace("='", "='other_", 1)
            replies["argument_changed"] = [[text(t)] if t else [] for t in other]
            break
    parsed = [[_keywords_only(call) for call in turn] for turn in ground_truth]
    if all(call is not None for turn in parsed for call in turn):
        replies["function_calls"] = [[[{name: json.dumps(args)} for name, args in turn]] if turn else []
                                     for turn in parsed]
    return replies


def _multi_turn_cases(eval_runner, handler, model: str) -> list[dict]:
    """bfcl-eval's verdict on each result; its instances live in globals named after the model, the item and the
    class, so each case is run under a model name of its own."""
    cases = []
    for category in MULTI_TURN:
        entries = _lines(DATA / f"BFCL_v4_{category}.json")[:MULTI_TURN_ITEMS]
        answers = {a["id"]: a["ground_truth"] for a in _lines(DATA / "possible_answer" / f"BFCL_v4_{category}.json")}
        for entry in entries:
            for case, result in _episode_replies(answers[entry["id"]]).items():
                if (model == "fc-model") != (case == "function_calls"):
                    continue
                verdict = eval_runner._evaluate_single_multi_turn_entry(
                    handler, entry["id"], result, answers[entry["id"]], dict(entry), f"{model}-{case}", category)
                cases.append({"model": model, "case": case,
                              "id": entry["id"], "result": result, "valid": verdict["valid"],
                              "error_type": None if verdict["valid"] else verdict["error"]["error_type"]})
    return cases


def main() -> None:
    eval_runner, handlers, Language, ReturnFormat = _bfcl()
    OUT.mkdir(exist_ok=True)
    cases: list[dict] = []
    for category in CATEGORIES:
        entries = _lines(DATA / f"BFCL_v4_{category}.json")[:ITEMS_PER_CATEGORY]
        answers_path = DATA / "possible_answer" / f"BFCL_v4_{category}.json"
        answers = {a["id"]: a["ground_truth"] for a in _lines(answers_path)} if answers_path.exists() else {}
        language = "javascript" if "javascript" in category else "java" if "java" in category else "python"
        for entry in entries:
            answer = answers.get(entry["id"])
            for model, fc in MODELS.items():
                for case, result in _replies(entry, answer, language, fc).items():
                    verdict = _verdict(eval_runner, handlers[model], model, category, entry, answer, result,
                                       Language, ReturnFormat, language)
                    cases.append({"model": model, "case": case, "id": entry["id"], "result": result,
                                  "valid": verdict["valid"], "error_type": verdict.get("error_type")})
    (OUT / "cases.jsonl").write_text("".join(json.dumps(case) + "\n" for case in cases))
    episodes = [case for model in MODELS for case in _multi_turn_cases(eval_runner, handlers[model], model)]
    (OUT / "episodes.jsonl").write_text("".join(json.dumps(case) + "\n" for case in episodes))
    print(f"{len(cases)} replies, {sum(c['valid'] for c in cases)} valid; {len(episodes)} multi-turn results, "
          f"{sum(c['valid'] for c in episodes)} valid")


def _verdict(eval_runner, handler, model, category, entry, answer, result, Language, ReturnFormat, language):
    if "relevance" in category:
        return eval_runner._evaluate_single_relevance_entry(handler, entry["id"], result, entry, model, category)
    lang = {"python": (Language.PYTHON, ReturnFormat.PYTHON), "java": (Language.JAVA, ReturnFormat.JAVA),
            "javascript": (Language.JAVASCRIPT, ReturnFormat.JAVASCRIPT)}[language]
    return eval_runner._evaluate_single_ast_entry(handler, entry["id"], result, answer, entry, model, category,
                                                  language=lang[0], return_format=lang[1])


def result_folder() -> None:
    """bfcl_reference/run: result/<model>/<group>/BFCL_v4_<category>_result.json with one reply per item (each item
    its next perturbation in turn, from cases.jsonl), then bfcl-eval's own evaluation of that folder
    (eval_runner.runner, partial: only the items answered) into run/score/; each score file's lines for invalid items
    keep only id, valid, error and error_type (bfcl-eval copies the whole item there, BFCL's data stays in
    ../shared/data/real)."""
    import shutil

    eval_runner, _, _, _ = _bfcl()
    from bfcl_eval.utils import get_directory_structure_by_category

    run = OUT / "run"
    shutil.rmtree(run, ignore_errors=True)
    cases = _lines(OUT / "cases.jsonl")
    for model in MODELS:
        replies: dict[str, list[dict]] = {}
        for case in cases:
            if case["model"] == model:
                replies.setdefault(case["id"], []).append(case)
        for index, (item_id, found) in enumerate(sorted(replies.items())):
            category = item_id.rsplit("_", 1)[0]
            folder = run / "result" / model / get_directory_structure_by_category(category)
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / f"BFCL_v4_{category}_result.json", "a") as handle:
                handle.write(json.dumps({"id": item_id, "result": found[index % len(found)]["result"]}) + "\n")
    eval_runner.runner(list(MODELS), list(CATEGORIES), run / "result", run / "score", allow_missing=True)
    for path in (run / "score").rglob("*_score.json"):
        header, *invalid = _lines(path)
        kept = [{key: line.get(key) for key in ("id", "valid", "error", "error_type")} for line in invalid]
        path.write_text("".join(json.dumps(line) + "\n" for line in [header, *kept]))


def compare_all() -> None:
    """Every item of every single-turn category, each reply scored by bfcl-eval and by evalpipe: the differences."""
    sys.path.insert(0, str(HERE.parents[3]))
    from stages.kinds.function_calling.verdicts import FUNCTION_CALLS, TEXT, item_verdict

    eval_runner, handlers, Language, ReturnFormat = _bfcl()
    total, differing = 0, []
    for category in CATEGORIES:
        answers_path = DATA / "possible_answer" / f"BFCL_v4_{category}.json"
        answers = {a["id"]: a["ground_truth"] for a in _lines(answers_path)} if answers_path.exists() else {}
        language = "javascript" if "javascript" in category else "java" if "java" in category else "python"
        for entry in _lines(DATA / f"BFCL_v4_{category}.json"):
            answer = answers.get(entry["id"])
            for model, fc in MODELS.items():
                for case, result in _replies(entry, answer, language, fc).items():
                    theirs = _verdict(eval_runner, handlers[model], model, category, entry, answer, result, Language,
                                      ReturnFormat, language)
                    ours, _ = item_verdict(category, entry["function"], answer, result, FUNCTION_CALLS if fc else TEXT)
                    total += 1
                    if (ours.valid, ours.error_type) != (theirs["valid"], theirs.get("error_type")):
                        differing.append((model, entry["id"], case, result, ours, theirs.get("error_type")))
    for category in MULTI_TURN:
        answers = {a["id"]: a["ground_truth"] for a in _lines(DATA / "possible_answer" / f"BFCL_v4_{category}.json")}
        for entry in _lines(DATA / f"BFCL_v4_{category}.json"):
            truth = answers[entry["id"]]
            for model in MODELS:
                for case, result in _episode_replies(truth).items():
                    if (model == "fc-model") != (case == "function_calls"):
                        continue
                    theirs = eval_runner._evaluate_single_multi_turn_entry(
                        handlers[model], entry["id"], result, truth, dict(entry), f"all-{model}-{case}", category)
                    ours, _ = item_verdict(category, [], truth, result, FUNCTION_CALLS if model == "fc-model" else
                                           TEXT, {key: entry[key] for key in ("initial_config", "involved_classes")})
                    total += 1
                    expected = None if theirs["valid"] else theirs["error"]["error_type"]
                    if (ours.valid, ours.error_type) != (theirs["valid"], expected):
                        differing.append((model, entry["id"], case, result, ours, expected))
    for found in differing[:20]:
        print(*found)
    print(f"{total} replies, {len(differing)} verdicts differ")


if __name__ == "__main__":
    compare_all() if "--compare-all" in sys.argv else result_folder() if "--result-folder" in sys.argv else main()
