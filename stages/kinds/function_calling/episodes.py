"""BFCL's multi-turn episodes checked as bfcl-eval's multi_turn_checker checks them: after every turn the model's
calls and the ground truth's run on instances of BFCL's own mock APIs (from an installed bfcl-eval), their state
compared and the ground truth's results looked for among the model's. Calls are parsed, never evaluated: a method of
an involved class with literal arguments; anything else is that call's error, returned as its result."""
from __future__ import annotations

import ast
import copy
import importlib
import inspect
import json
from itertools import zip_longest
from typing import Any

from ...chat.outage import missing_part_cause
from .checker import Verdict
from .python_calls import Call, DecodeError, python_calls

INSTALL = "pip install --no-deps bfcl-eval==2026.3.23 mpmath"
_BACKENDS = "bfcl_eval.constants.executable_backend_config"
KEPT_CHARS = 1000  # characters of a call or its result B4 keeps for the report
_REFUSED = ("kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run")  # bfcl-eval refuses these by name


def mock_apis_missing() -> str | None:
    """Why multi-turn episodes cannot run here (bfcl-eval's mock APIs are not installed), or None."""
    try:
        importlib.import_module(_BACKENDS)
    except ImportError:
        return f"multi-turn episodes run against bfcl-eval's mock APIs: `{INSTALL}`"
    return None


def mock_apis_cause() -> str:
    """A multi-turn item's cause of not being scored without bfcl-eval (stages/chat/outage.py)."""
    return missing_part_cause("bfcl-eval (BFCL's mock APIs, which multi-turn items run against)", INSTALL)


class Instances:
    """One side's instances of an episode's involved classes, built from its initial_config."""

    def __init__(self, involved: list[str], initial_config: dict, long_context: bool) -> None:
        backends = importlib.import_module(_BACKENDS)
        self.instances: dict[str, Any] = {}
        self.methods: dict[str, Any] = {}
        for name in involved:
            instance = getattr(importlib.import_module(backends.CLASS_FILE_PATH_MAPPING[name]), name)()
            if name not in backends.STATELESS_CLASSES:
                instance._load_scenario(copy.deepcopy(initial_config.get(name, {})), long_context=long_context)
            self.instances[name] = instance
            for method_name, method in inspect.getmembers(instance, predicate=inspect.ismethod):
                if not method_name.startswith("_"):
                    self.methods[method_name] = method

    def run(self, call: str) -> str:
        """One call's result as bfcl-eval records it: text as is, a dict as JSON, anything else as str; an error as
        `Error during execution: …`."""
        try:
            method, args, kwargs = self._parsed(call)
            result = method(*args, **kwargs)
        except Exception as exc:  # the mock APIs raise what they raise; bfcl-eval records each as the call's result
            return f"Error during execution: {exc}"
        if isinstance(result, str):
            return result
        if isinstance(result, dict):
            try:
                return json.dumps(result)
            except (TypeError, ValueError):
                return str(result)
        return str(result)

    def _parsed(self, call: str) -> tuple[Any, list, dict]:
        name = call.split("(")[0].strip()
        if name.split(".")[-1] in _REFUSED:
            raise ValueError(f"Function call {name.split('.')[-1]} is not allowed.")
        try:
            node = ast.parse(call.strip(), mode="eval").body
        except SyntaxError as exc:
            raise ValueError(f"invalid syntax: {exc.msg}") from None
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            raise ValueError(f"{call!r} is not a call of one of the episode's functions")
        if node.func.id not in self.methods:
            raise NameError(f"name '{node.func.id}' is not defined")
        try:
            args = [ast.literal_eval(arg) for arg in node.args]
            kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in node.keywords}
        except ValueError:
            raise ValueError(f"{call!r} has an argument that is not a literal (not run)") from None
        return self.methods[node.func.id], args, kwargs


def execution_strings(step: Any, function_calls: bool) -> list[str]:
    """One step's reply as bfcl-eval's decode_execute gives it: its calls as `f(a=1, b='x')` texts."""
    if function_calls:
        calls = step if isinstance(step, list) else [step]
        texts = []
        for call in calls:
            if not isinstance(call, dict):
                raise DecodeError(f"{call!r} is not a {{name: arguments}} call")
            for name, arguments in call.items():
                try:
                    arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
                    texts.append(f"{name}({','.join(f'{k}={v!r}' for k, v in arguments.items())})")
                except (TypeError, ValueError, AttributeError) as exc:
                    raise DecodeError(f"the arguments of {name} are not a JSON object: {exc}") from None
        return texts
    if not isinstance(step, str):
        raise DecodeError(f"a {type(step).__name__} where text was expected")
    return [_call_text(call) for call in python_calls(step)]


def _call_text(call: Call) -> str:
    (name, arguments), = call.items()
    return f"{name}({', '.join(f'{key}={_nested(value)}' for key, value in arguments.items())})"


def _nested(value: Any) -> str:
    if isinstance(value, dict):
        if all(isinstance(v, dict) for v in value.values()):
            if not value:
                raise DecodeError("an empty nested call")
            return _call_text({next(iter(value)): value[next(iter(value))]})
        return "{" + ", ".join(f"'{key}': {_nested(v)}" for key, v in value.items()) + "}"
    return repr(value)


def decoded_turns(reply: list, function_calls: bool) -> list[list[list[str]]]:
    """Each turn's steps as call texts; a step that does not decode, or decodes to no call, is left out."""
    return [[calls for step in (turn if isinstance(turn, list) else []) if (calls := _step_calls(step, function_calls))]
            for turn in reply]


def _step_calls(step: Any, function_calls: bool) -> list[str]:
    """A step's call texts; none when it does not decode or decodes to no call."""
    try:
        texts = execution_strings(step, function_calls)
    except (DecodeError, RecursionError):
        return []
    return [] if not texts or (len(texts) == 1 and not texts[0]) else texts


def _said(reply: list, function_calls: bool) -> list[list[str]]:
    """Each turn's text steps that hold no call (what the model said between and after its calls), cut."""
    return [[_kept(step) for step in (turn if isinstance(turn, list) else [])
             if isinstance(step, str) and step.strip() and not _step_calls(step, function_calls)] for turn in reply]


def episode_verdict(episode: dict, ground_truth: list[list[str]], reply: Any, function_calls: bool) -> Verdict:
    """bfcl-eval's verdict on one multi-turn result (a list of turns, each a list of steps), with each turn shown
    (`turns`: its steps' calls with their results, the ground truth's calls and the turn's verdict)."""
    if not isinstance(reply, list):
        return Verdict(False, "multi_turn:inference_error", "the result is not a list of turns")
    turns = decoded_turns(reply, function_calls)
    if len(reply) != len(ground_truth):
        reason = f"{len(reply)} turns, expected {len(ground_truth)}"
        return Verdict(False, "multi_turn:force_terminated", reason, _with_said(
            [_turn_shown(steps, None, expected, f"not checked ({reason})")
             for steps, expected in zip_longest(turns, ground_truth, fillvalue=[])], reply, function_calls))
    long_context = "long_context" in episode["category"] or "composite" in episode["category"]
    model = Instances(episode["involved_classes"], episode["initial_config"], long_context)
    truth = Instances(episode["involved_classes"], episode["initial_config"], long_context)
    model_results: list[str] = []
    shown: list[dict[str, Any]] = []
    for number, (steps, expected) in enumerate(zip(turns, ground_truth)):
        results = [[model.run(call) for call in step] for step in steps]
        model_results.extend(result for step in results for result in step)
        failed = _turn_failed(number, steps, expected, [truth.run(call) for call in expected], model_results,
                              model, truth)
        shown.append(_turn_shown(steps, results, expected, "no call expected" if not expected and failed is None
                                 else "right" if failed is None else f"{failed.error_type}: {failed.reason}"))
        if failed is not None:
            shown += [_turn_shown(steps, None, expected, "not checked (an earlier turn failed)")
                      for steps, expected in zip(turns[number + 1:], ground_truth[number + 1:])]
            return Verdict(False, failed.error_type, failed.reason, _with_said(shown, reply, function_calls))
    return Verdict(True, turns=_with_said(shown, reply, function_calls))


def _with_said(shown: list[dict[str, Any]], reply: list, function_calls: bool) -> list[dict[str, Any]]:
    said = _said(reply, function_calls)
    return [{**turn, "said": said[number] if number < len(said) else []} for number, turn in enumerate(shown)]


def _turn_failed(number: int, steps: list[list[str]], expected: list[str], expected_results: list[str],
                 model_results: list[str], model: Instances, truth: Instances) -> Verdict | None:
    """bfcl-eval's checks of one turn, in its order: an empty turn, the instances' state, the expected results."""
    if expected and not steps:
        return Verdict(False, "multi_turn:empty_turn_model_response", f"no call in turn {number}")
    if not expected:
        return None
    for name, instance in truth.instances.items():
        differing = [attribute for attribute in vars(instance) if not attribute.startswith("_")
                     and getattr(model.instances[name], attribute) != getattr(instance, attribute)]
        if differing:
            return Verdict(False, "multi_turn:instance_state_mismatch",
                           f"turn {number}: {name}'s {', '.join(differing)} differ")
    missing = _missing(expected_results, model_results)
    if missing:
        return Verdict(False, "multi_turn:execution_response_mismatch",
                       f"turn {number}: {len(missing)} expected result(s) not among the model's")
    return None


def _turn_shown(steps: list[list[str]], results: list[list[str]] | None, expected: list[str],
                verdict: str) -> dict[str, Any]:
    """A turn as the report shows it: each step's calls with their results (None where not run), texts cut."""
    return {"steps": [[{"call": _kept(call), "result": None if results is None else _kept(results[s][c])}
                       for c, call in enumerate(step)] for s, step in enumerate(steps)],
            "expected": [_kept(call) for call in expected], "verdict": verdict}


def _kept(text: str) -> str:
    return text if len(text) <= KEPT_CHARS else text[:KEPT_CHARS] + "…"


def _missing(expected: list[str], found: list[str]) -> list[str]:
    remaining, missing = list(found), []
    for item in expected:
        if item in remaining:
            remaining.remove(item)
        else:
            missing.append(item)
    return missing
