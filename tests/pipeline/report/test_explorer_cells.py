"""Every registered kind's explorer cells read as what the model did and what was wanted, not as the JSON or list
text they were stored as: all kinds' conformance fixtures (the registry's, no list kept here) in one run, every
prediction cell, gold cell and "read as" text of every model read from report.html in headless Chromium; offline."""
import ast
import html
import json
import shutil

import pytest

from tests.pipeline.browser import probe_page
from tests.pipeline.kinds.conformance import conformance_folder, runnable_kinds
from tests.pipeline.workspace import run

PROBE = """<script>
const shown = {};
document.querySelectorAll("details.explorer").forEach(function (box) {
  const a = box.querySelector(".model-a");
  Array.from(a.options).forEach(function (option) {
    a.value = option.value; a.dispatchEvent(new Event("change"));
    Array.from(box.querySelector("tbody").rows).forEach(function (row) {  // the items' table, not the set-aside one
      shown[box.dataset.dataset + "/" + option.value + "/" + row.cells[0].textContent] = {
        replies: Array.from(row.cells[3].querySelectorAll(".reply")).filter(r => !r.closest("details.reasoning"))
          .map(r => r.textContent),
        raw: Array.from(row.cells[3].querySelectorAll("details.raw .raw-reply")).map(r => r.textContent),
        gold: row.cells[2].textContent,
        reading: Array.from(row.cells[4].childNodes).filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent)
          .concat(Array.from(row.cells[3].querySelectorAll("ol.replies summary")).map(s => s.lastChild.textContent))
          .filter(t => t.trim()),
        labels: Array.from(row.cells[4].querySelectorAll("details.labels li")).map(li => li.textContent),
        folds: Array.from(row.cells[3].querySelectorAll("details.raw")).concat(
          Array.from(row.cells[4].querySelectorAll("details.labels"))).map(d => d.open)};
    });
  });
});
document.body.dataset.shown = JSON.stringify(shown);
</script></body>"""


def raw_structure(text: str) -> bool:
    """Whether a cell's text is a JSON or Python list / object as stored, rather than something drawn from it."""
    for parse in (json.loads, ast.literal_eval):
        try:
            if isinstance(parse(text.strip()), (list, dict, tuple)):
                return True
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False


def holds_raw_structure(text: str) -> bool:
    """Whether a text is, or holds where a bracket opens, a stored object or a list of lists / objects (`valid:
    [{'f': {'x': 1}}]`); a flat list of values in a sentence (`expected one of ['a', 'b']`) and a call's argument
    that is an object or list (`f(x={"a": 1})`) are let be."""
    if raw_structure(text):
        return True
    for start, opening in enumerate(text):
        closing = {"[": "]", "{": "}"}.get(opening) if text[start - 1:start] != "=" else None
        for end in (i for i, c in enumerate(text) if c == closing and i > start) if closing else ():
            for parse in (json.loads, ast.literal_eval):
                try:
                    found = parse(text[start:end + 1])
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                    continue
                if isinstance(found, dict) or (isinstance(found, list) and any(
                        isinstance(item, (list, tuple, dict)) for item in found)):  # not `[1], [2]`, a tuple
                    return True
    return False


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    """Every prediction cell report.html draws for every kind's fixture, with its row's gold and read-as texts (of
    several replies, each one's), by dataset/model/id, and the console."""
    root = tmp_path_factory.mktemp("cells")
    kinds = runnable_kinds()
    for name in kinds:
        shutil.copytree(conformance_folder(name), root / "inputs" / name, ignore=shutil.ignore_patterns("expected.json"))
    assert run(root) == 0
    body, console = probe_page(root / "outputs" / "report.html", PROBE, root)
    return kinds, json.loads(html.unescape(body["shown"])), console


def test_raw_structure_tells_stored_lists_and_objects_from_drawn_text():
    assert raw_structure("[-2.0, -3.0]") and raw_structure('{"events": []}') and raw_structure("[{'f': {'x': 1}}]")
    assert not raw_structure('chose "blue" (-2.000)') and not raw_structure("[weather(city='x')]")
    assert not raw_structure("Paris") and not raw_structure("8")
    assert holds_raw_structure("valid: [{'weather.current': {'city': 'Lyon'}}]") and holds_raw_structure('x {"a": 1}')
    assert holds_raw_structure("[[1], [2]]") and not holds_raw_structure("'city' = 'Lyon', expected one of ['Paris']")
    assert not holds_raw_structure('valid: weather_current(city="Lyon"); f(x=[1, 2]) [sic')
    assert not holds_raw_structure('f(x={"a": [1]}, y=[[1], [2]])') and holds_raw_structure('f({"a": 1})')


def test_no_kinds_prediction_cell_is_its_stored_json_or_list_text(cells):
    kinds, shown, console = cells
    assert console == []
    answered = {key.split("/")[0] for key, cell in shown.items() if any(cell["replies"])}
    assert answered == set(kinds) and len(kinds) >= 12  # every kind's fixture has cells with replies drawn
    raw = {key: text for key, cell in shown.items() for text in cell["replies"] if raw_structure(text)}
    assert raw == {}


def test_no_kinds_gold_cell_or_read_as_text_is_stored_json_or_list_text(cells):
    kinds, shown, _ = cells
    read = {key.split("/")[0] for key, cell in shown.items() if cell["reading"]}
    assert read == set(kinds) - {"annotation"}  # annotation's reading is its labels view, no text of its own
    raw = {key: text for key, cell in shown.items() for text in [cell["gold"], *cell["reading"]]
           if holds_raw_structure(text)}
    assert raw == {}


def test_function_calling_gold_and_read_as_text_read_as_calls(cells):
    _, shown, _ = cells
    # questions.jsonl's possible answers; unit's "" (may be left out) is `optional`
    assert shown["function_calling/function-calling/simple_python_0"]["gold"] == (
        'weather.current(city="Paris" | "Paris, France", unit="celsius" optional)')
    assert shown["function_calling/prompting/parallel_0"]["gold"] == 'circle_area(radius=2.0); circle_area(radius=3.0)'
    assert shown["function_calling/prompting/irrelevance_0"]["gold"] == "no call"
    # prompting's reply decoded as Python calls, checked valid (radius 3 then 2, in any order)
    assert shown["function_calling/prompting/parallel_0"]["reading"] == [
        "valid: circle_area(radius=3); circle_area(radius=2)"]
    assert shown["function_calling/function-calling/simple_java_0"]["reading"] == [
        'valid: Cache_put(key="session", ttl="60L")']


def test_tau2s_gold_actions_read_as_calls(cells):
    _, shown, _ = cells
    assert shown["tau2/good/complete"]["gold"] == 'update_task_status(task_id="task_1", status="completed")'


def test_loglikelihood_and_annotation_cells_read_compactly_with_the_reply_as_given_folded_behind(cells):
    _, shown, _ = cells
    # loglikelihood item 1: "four" −3, "x" −2 (acc picks x; per character four, −0.75)
    assert shown["loglikelihood/m/1"]["replies"] == ['chose "x" (-2.000); per character "four" (-0.7500)']
    assert shown["loglikelihood/m/1"]["raw"] == ["[-3.0, -2.0]"]
    assert shown["loglikelihood/m/1"]["folds"] == [False] and shown["annotation/m/houyi"]["folds"] == [False, False]
    annotation = shown["annotation/m/houyi"]
    assert annotation["replies"][0].startswith("3 events, 0 characters; h1 physical & conflict/celestial/ongoing/"
                                               "setup; h2 physical & conflict/attack/success/climax 后羿 → 太阳 "
                                               "conflict/enemy (hostility)")
    assert annotation["raw"][0].startswith('{"version":"3.0"')
    assert annotation["labels"][:2] == [
        "h1 “天上有十个太阳，大地被烤焦了。” physical & conflict/celestial/ongoing/setup (aligned with gold h1)",
        "h2 “后羿拉开神弓，射下了九个太阳。” physical & conflict/attack/success/climax; 后羿 → 太阳 "
        "conflict/enemy (hostility) (aligned with gold h2)"]
    assert shown["function_calling/function-calling/simple_python_0"]["replies"] == ['weather_current(city="Lyon")']
    assert shown["function_calling/function-calling/simple_python_0"]["raw"] == [
        '[{"weather_current": "{\\"city\\": \\"Lyon\\"}"}]']

