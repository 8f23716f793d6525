"""Chat templates found around two models' prompts, and only where the prompts are otherwise the same."""
from stages.harness.chat_templates import NO_TEMPLATE, chat_templates, without_template

QUESTIONS = {"0": "Question: 1 + 1?\nA. 1\nB. 2\nC. 以上都不对", "1": "Question: 2 + 2?\nA. 4\nB. 5\nC. 以上都不对"}


def _wrapped(before: str, after: str, questions: dict[str, str] = QUESTIONS) -> dict[str, str]:
    return {row: before + text + after for row, text in questions.items()}


def test_each_models_template_comes_off_and_the_datasets_own_text_stays():
    qwen = _wrapped("<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n")
    llama = _wrapped("<s>[INST] ", " [/INST]")
    templates = chat_templates([qwen, llama])
    assert templates == [("<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n"), ("<s>[INST] ", " [/INST]")]
    for prompts, template in zip((qwen, llama), templates):
        # "Question: " and the last option's "以上都不对", shared by every row, stay in the question
        assert {row: without_template(prompt, template) for row, prompt in prompts.items()} == QUESTIONS


def test_no_template_where_the_questions_differ_a_model_is_alone_or_a_row_is_missing():
    other = {"0": "Question: 3 + 3?\nA. 6\nB. 7", "1": "Question: 2 + 2?\nA. 4\nB. 5"}
    assert chat_templates([_wrapped("<s>", "</s>"), _wrapped("[INST]", "[/INST]", other)]) == [NO_TEMPLATE] * 2
    assert chat_templates([_wrapped("<s>", "</s>")]) == [NO_TEMPLATE]
    assert chat_templates([_wrapped("<s>", "</s>"), {"0": "[INST]" + QUESTIONS["0"]}]) == [NO_TEMPLATE] * 2
    assert chat_templates([QUESTIONS, dict(QUESTIONS)]) == [NO_TEMPLATE] * 2
