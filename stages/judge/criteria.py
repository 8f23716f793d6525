"""Judge criteria: what a judge model is asked about one answer, on which scale, with English and Chinese rubrics
(seed 003's rater columns content_correct / style_consistent, SimpleQA's correct, a generic 1–5 score), and the
pairwise question of which of two answers is better."""
from __future__ import annotations

from dataclasses import dataclass

from ..chat.prompts import check_template
from ..core.errors import UsageError

PLACEHOLDERS = ("question", "context", "expected", "prediction", "persona")
PAIRWISE_PLACEHOLDERS = ("question", "context", "expected", "answer_a", "answer_b", "persona")
CRITERION_SCALES = ("binary", "correct", "1-5", "1-10")
PAIRWISE_SCALES = ("preference", "five_way")

_JSON_ANSWER = {
    "en": 'Answer with one JSON object and nothing else: {{{{"reason": "<one sentence>", "{key}": {values}}}}}',
    "zh": '只用一个 JSON 对象回答，不要写别的：{{{{"reason": "<一句话理由>", "{key}": {values}}}}}',
}


@dataclass(frozen=True)
class Criterion:
    """One judged property: its scale and its rubric per language (a template over PLACEHOLDERS)."""

    name: str
    scale: str
    rubrics: dict[str, str]

    def rubric(self, language: str) -> str:
        return self.rubrics.get(language) or self.rubrics["en"]


def _answer_line(language: str, key: str, values: str) -> str:
    return _JSON_ANSWER[language].format(key=key, values=values)


_DIALOGUE_TURN = {  # what both dialogue criteria show the judge
    "en": "You grade a character's reply in a dialogue.\nCharacter: {persona}\nDialogue so far:\n{context}\n"
          "Reference reply: {expected}\nReply to grade: {prediction}\n\n",
    "zh": "你要评判对话中某个角色的回复。\n角色：{persona}\n对话上文：\n{context}\n参考回复：{expected}\n"
          "待评回复：{prediction}\n\n",
}


BUILT_IN: dict[str, Criterion] = {
    "content_correct": Criterion("content_correct", "binary", {
        "en": _DIALOGUE_TURN["en"] + "Is the reply's content correct — does it "
              "say what the reference reply says, with nothing false or contradicting it? Wording may differ. "
              "Score 1 if correct, 0 if not.\n" + _answer_line("en", "score", "0 or 1"),
        "zh": _DIALOGUE_TURN["zh"] + "待评回复的内容是否正确——是否表达了参考回复的意思，且没有错误或与之矛盾的内容？"
              "措辞可以不同。正确记 1，否则记 0。\n" + _answer_line("zh", "score", "0 或 1"),
    }),
    "style_consistent": Criterion("style_consistent", "binary", {
        "en": _DIALOGUE_TURN["en"] + "Is the reply in the character's style — "
              "voice, tone, vocabulary and manner of the character and of the reference reply? Content does not "
              "matter here. Score 1 if consistent, 0 if not.\n" + _answer_line("en", "score", "0 or 1"),
        "zh": _DIALOGUE_TURN["zh"] + "待评回复是否符合该角色的风格——语气、口吻、用词和说话方式是否与角色及参考回复一致？"
              "这里不看内容对错。一致记 1，否则记 0。\n" + _answer_line("zh", "score", "0 或 1"),
    }),
    "correct": Criterion("correct", "correct", {
        "en": "You grade an answer to a question against its gold answers.\nQuestion: {question}\n{context}\n"
              "Gold answer(s): {expected}\nAnswer to grade: {prediction}\n\nCORRECT: the answer contains a gold "
              "answer's meaning and nothing contradicting it (wording, order and extra correct detail do not "
              "matter). INCORRECT: it states something that contradicts the gold answers, or a wrong answer. "
              "NOT_ATTEMPTED: it gives no answer (refuses, says it does not know, or asks back) and contradicts "
              "nothing.\n" + _answer_line("en", "verdict", '"CORRECT" or "INCORRECT" or "NOT_ATTEMPTED"'),
        "zh": "你要对照标准答案评判一个回答。\n问题：{question}\n{context}\n标准答案：{expected}\n待评回答：{prediction}\n\n"
              "CORRECT：回答包含某个标准答案的意思，且没有与之矛盾的内容（措辞、顺序和多出的正确细节都不影响）。"
              "INCORRECT：回答与标准答案矛盾，或给出了错误答案。NOT_ATTEMPTED：回答没有给出答案（拒答、说不知道或反问），"
              "也没有矛盾的内容。\n" + _answer_line("zh", "verdict", '"CORRECT" 或 "INCORRECT" 或 "NOT_ATTEMPTED"'),
    }),
    "score_1_5": Criterion("score_1_5", "1-5", {
        "en": "You grade the quality of an answer.\nQuestion: {question}\n{context}\nReference: {expected}\n"
              "Answer to grade: {prediction}\n\nRate it from 1 (wrong or useless) to 5 (fully correct, complete and "
              "clear), judged against the reference.\n" + _answer_line("en", "score", "1, 2, 3, 4 or 5"),
        "zh": "你要评判一个回答的质量。\n问题：{question}\n{context}\n参考答案：{expected}\n待评回答：{prediction}\n\n"
              "对照参考答案，从 1（错误或无用）到 5（完全正确、完整且清楚）打分。\n" + _answer_line("zh", "score", "1 到 5 的整数"),
    }),
}


OPEN_ENDED: dict[str, Criterion] = {  # built-ins for instructions without a reference: the judge's own reading
    "score_1_5": Criterion("score_1_5", "1-5", {
        "en": "You grade a response to an instruction; there is no reference answer.\nInstruction: {question}\n"
              "{context}\nResponse to grade: {prediction}\n\nRate it from 1 (ignores the instruction, wrong or "
              "harmful) to 5 (follows the instruction fully: helpful, correct, complete and clear). Do not reward "
              "length for its own sake.\n" + _answer_line("en", "score", "1, 2, 3, 4 or 5"),
        "zh": "你要评判对一条指令的回复；没有参考答案。\n指令：{question}\n{context}\n待评回复：{prediction}\n\n"
              "从 1（没有遵循指令、错误或有害）到 5（完全遵循指令：有帮助、正确、完整且清楚）打分。不要因为篇幅长而加分。\n"
              + _answer_line("zh", "score", "1 到 5 的整数"),
    }),
    "pairwise": Criterion("pairwise", "preference", {
        "en": "You compare two responses to the same instruction; there is no reference answer.\nInstruction: "
              "{question}\n{context}\n\nResponse A: {answer_a}\n\nResponse B: {answer_b}\n\nWhich response follows "
              "the instruction better — more helpful, correct, complete and clear? Neither the order of the responses "
              "nor their length says anything about their quality. Say A or B, or TIE when neither is better.\n"
              + _answer_line("en", "verdict", '"A" or "B" or "TIE"'),
        "zh": "你要比较对同一条指令的两个回复；没有参考答案。\n指令：{question}\n{context}\n\n回复 A：{answer_a}\n\n"
              "回复 B：{answer_b}\n\n哪个回复更好地遵循了指令——更有帮助、更正确、更完整、更清楚？回复的先后顺序和长短都与质量无关。"
              "回答 A 或 B；两者一样好时回答 TIE。\n" + _answer_line("zh", "verdict", '"A" 或 "B" 或 "TIE"'),
    }),
}


PAIRWISE = Criterion("pairwise", "preference", {
    "en": "You compare two answers to the same question.\nQuestion: {question}\n{context}\nReference: {expected}\n\n"
          "Answer A: {answer_a}\n\nAnswer B: {answer_b}\n\nWhich answer is better — more correct, complete and clear, "
          "judged against the reference? The order of the answers says nothing about their quality. Say A or B, or "
          "TIE when neither is better.\n" + _answer_line("en", "verdict", '"A" or "B" or "TIE"'),
    "zh": "你要比较同一个问题的两个回答。\n问题：{question}\n{context}\n参考答案：{expected}\n\n回答 A：{answer_a}\n\n"
          "回答 B：{answer_b}\n\n对照参考答案，哪个回答更好——更正确、更完整、更清楚？回答的先后顺序与质量无关。"
          "回答 A 或 B；两者一样好时回答 TIE。\n" + _answer_line("zh", "verdict", '"A" 或 "B" 或 "TIE"'),
})


def uses_reference(criterion: Criterion) -> bool:
    """Whether any of the criterion's rubrics shows the reference ({expected})."""
    import string

    return any(name == "expected" for text in criterion.rubrics.values()
               for _, name, _, _ in string.Formatter().parse(text))


def resolve_pairwise(rubric: object, origin: str, open_ended: bool = False) -> Criterion:
    """The pairwise question: built in (without a reference for `open_ended` instructions), or [judge.rubrics]
    pairwise = "template" over PAIRWISE_PLACEHOLDERS, or {template = "…", scale = "preference" | "five_way"} (A / B /
    TIE, or Arena-Hard's [[A>>B]] … [[B>>A]])."""
    if rubric is None:
        return OPEN_ENDED["pairwise"] if open_ended else PAIRWISE
    table = rubric if isinstance(rubric, dict) else {"template": rubric}
    template, scale = table.get("template"), table.get("scale", "preference")
    if not isinstance(template, str) or set(table) - {"template", "scale"} or scale not in PAIRWISE_SCALES:
        raise UsageError(f"{origin}: [judge.rubrics] pairwise must be a template text, or {{template = \"…\", scale = "
                         f"{' | '.join(repr(s) for s in PAIRWISE_SCALES)}}}")
    check_template(template, f"{origin} [judge.rubrics] pairwise", PAIRWISE_PLACEHOLDERS, "rubric",
                   required=("answer_a", "answer_b"))
    return Criterion("pairwise", scale, {"en": template})


def resolve_criteria(names: list[str], rubrics: dict[str, object], origin: str,
                     open_ended: bool = False) -> dict[str, Criterion]:
    """The dataset's criteria by name: built-ins (for `open_ended` instructions, those that need no reference where
    one exists), overridden or added by [judge.rubrics] (`name = "template"`, or `name = {template = "…", scale =
    "binary" | "correct" | "1-5" | "1-10"}`; an added one defaults to the 1–5 scale)."""
    chosen: dict[str, Criterion] = {}
    for name in names:
        given = rubrics.get(name)
        base = (OPEN_ENDED if open_ended and name in OPEN_ENDED else BUILT_IN).get(name)
        if given is None and base is None:
            raise UsageError(f"{origin}: [judge] criterion {name!r} is not built in ({', '.join(BUILT_IN)}) and has "
                             "no [judge.rubrics] template")
        if given is None:
            chosen[name] = base
            continue
        table = given if isinstance(given, dict) else {"template": given}
        unknown = sorted(set(table) - {"template", "scale"})
        template, scale = table.get("template"), table.get("scale", base.scale if base else "1-5")
        if unknown or not isinstance(template, str) or scale not in CRITERION_SCALES:
            raise UsageError(f"{origin}: [judge.rubrics] {name} must be a template text or "
                             f"{{template = \"…\", scale = {' | '.join(repr(s) for s in CRITERION_SCALES)}}}")
        check_template(template, f"{origin} [judge.rubrics] {name}", PLACEHOLDERS, "rubric", required=("prediction",))
        chosen[name] = Criterion(name, scale, {"en": template})
    extra = sorted(set(rubrics) - set(names) - {"pairwise"})
    if extra:
        raise UsageError(f"{origin}: [judge.rubrics] {', '.join(extra)} not in [judge] criteria")
    return chosen
