"""Each of IFEval's 25 checkers on hand-made responses at its boundary (exactly N, one off), the loose variants, and
instruction ids or kwargs that cannot be checked."""
import pytest

from stages.kinds.ifeval.instructions import INSTRUCTIONS, check_instruction, instruction_problem, loose_variants


def followed(name, text, **kwargs):
    assert instruction_problem(name, kwargs) is None
    return INSTRUCTIONS[name].check(text, **kwargs)[0]


def reason(name, text, **kwargs):
    return INSTRUCTIONS[name].check(text, **kwargs)[1]


def test_all_25_instructions_are_there():
    assert len(INSTRUCTIONS) == 25
    assert {name.split(":")[0] for name in INSTRUCTIONS} == {
        "keywords", "language", "length_constraints", "detectable_content", "detectable_format", "combination",
        "startend", "change_case", "punctuation"}


def test_word_counts_at_the_boundary():
    three = "one two three"
    assert followed("length_constraints:number_words", three, num_words=3, relation="at least")
    assert not followed("length_constraints:number_words", three, num_words=4, relation="at least")
    assert followed("length_constraints:number_words", three, num_words=4, relation="less than")
    assert not followed("length_constraints:number_words", three, num_words=3, relation="less than")
    assert reason("length_constraints:number_words", "a b c d", num_words=3, relation="less than") == \
        "4 words, fewer than 3"
    assert followed("length_constraints:number_words", "don't stop", num_words=3, relation="at least")  # don, t, stop


def test_sentences_and_capital_words():
    text = "It rains. The sun is out! Is it?"
    assert followed("length_constraints:number_sentences", text, num_sentences=3, relation="at least")
    assert not followed("length_constraints:number_sentences", text, num_sentences=3, relation="less than")
    caps = "NASA and the UN met. The USA came."
    assert followed("change_case:capital_word_frequency", caps, capital_frequency=3, capital_relation="at least")
    assert not followed("change_case:capital_word_frequency", caps, capital_frequency=3, capital_relation="less than")


def test_keywords():
    assert followed("keywords:existence", "Cats and Dogs", keywords=["cat", "dog"])
    assert reason("keywords:existence", "Cats only", keywords=["cat", "dog"]) == "no 'dog'"
    assert followed("keywords:frequency", "the cat, the hat, the bat", keyword="the", frequency=3, relation="at least")
    assert not followed("keywords:frequency", "the cat, the hat", keyword="the", frequency=3, relation="at least")
    assert followed("keywords:forbidden_words", "category is fine", forbidden_words=["cat"])  # whole words only
    assert reason("keywords:forbidden_words", "a Cat here", forbidden_words=["cat"]) == "'cat' used"
    assert followed("keywords:letter_frequency", "Banana", letter="a", let_frequency=3, let_relation="at least")
    assert not followed("keywords:letter_frequency", "Banana", letter="a", let_frequency=3, let_relation="less than")
    assert followed("keywords:letter_frequency", "#1 #2", letter="#", let_frequency=2, let_relation="at least")


def test_language_and_case():
    english = "This is a plain English sentence about the weather and the sea."
    assert followed("language:response_language", english, language="en")
    assert reason("language:response_language", english, language="fr") == "language detected: en, wanted: fr"
    assert followed("change_case:english_capital", english.upper())
    assert not followed("change_case:english_capital", english)
    assert followed("change_case:english_lowercase", english.lower())
    assert reason("change_case:english_lowercase", english) == "not all lowercase"


def test_paragraphs():
    three = "one\n***\ntwo\n***\nthree"
    assert followed("length_constraints:number_paragraphs", three, num_paragraphs=3)
    assert not followed("length_constraints:number_paragraphs", three, num_paragraphs=2)
    assert not followed("length_constraints:number_paragraphs", "one\n***\n***\ntwo", num_paragraphs=2)
    text = "Intro here.\n\nSecond starts here.\n\n\"Third,\" said she."
    assert followed("length_constraints:nth_paragraph_first_word", text, num_paragraphs=3, nth_paragraph=3,
                    first_word="third")
    assert not followed("length_constraints:nth_paragraph_first_word", text, num_paragraphs=3, nth_paragraph=2,
                        first_word="third")
    assert not followed("length_constraints:nth_paragraph_first_word", text, num_paragraphs=2, nth_paragraph=3,
                        first_word="third")


def test_content_and_format():
    assert followed("detectable_content:number_placeholders", "[name] at [place]", num_placeholders=2)
    assert not followed("detectable_content:number_placeholders", "[name] at place", num_placeholders=2)
    assert followed("detectable_content:postscript", "Hi.\nP.S. bye", postscript_marker="P.S.")
    assert followed("detectable_content:postscript", "Hi.\nP.P.S bye", postscript_marker="P.P.S")
    assert not followed("detectable_content:postscript", "Hi. bye", postscript_marker="P.S.")
    assert followed("detectable_format:number_bullet_lists", "* a\n* b\n- c", num_bullets=3)
    assert not followed("detectable_format:number_bullet_lists", "* a\n* b\n- c\n** bold", num_bullets=4)
    assert followed("detectable_format:constrained_response", "Well. My answer is maybe.")
    assert not followed("detectable_format:constrained_response", "My answer is perhaps.")
    assert followed("detectable_format:number_highlighted_sections", "*one* and **two**", num_highlights=2)
    assert not followed("detectable_format:number_highlighted_sections", "*one* and ** **", num_highlights=2)
    assert followed("detectable_format:multiple_sections", "SECTION 1\na\nSECTION 2\nb", section_spliter="SECTION",
                    num_sections=2)
    assert not followed("detectable_format:multiple_sections", "SECTION 1\na", section_spliter="SECTION",
                        num_sections=2)
    assert followed("detectable_format:json_format", '```json\n{"a": 1}\n```')
    assert not followed("detectable_format:json_format", "{'a': 1}")
    assert followed("detectable_format:title", "<<Poem of joy>>\nLines")
    assert not followed("detectable_format:title", "<< >>\nLines")


def test_combination_start_end_and_punctuation():
    assert followed("combination:two_responses", "First.\n******\nSecond.")
    assert not followed("combination:two_responses", "Same.\n******\nSame.")
    assert not followed("combination:two_responses", "One.\n******\n******\nTwo.")
    assert followed("combination:repeat_prompt", "Write a poem. Here it is.", prompt_to_repeat="write a poem.")
    assert not followed("combination:repeat_prompt", "Here: Write a poem.", prompt_to_repeat="Write a poem.")
    assert followed("startend:end_checker", 'Thanks. Any other questions?"', end_phrase="Any other questions?")
    assert not followed("startend:end_checker", "Any other questions? Bye.", end_phrase="Any other questions?")
    assert followed("startend:quotation", ' "quoted" ')
    assert not followed("startend:quotation", '"')
    assert followed("punctuation:no_comma", "no commas here")
    assert reason("punctuation:no_comma", "one, two") == "comma at 3"


def test_loose_tries_the_official_variants():
    assert loose_variants("Sure!\n*body*\nBye") == ["Sure!\n*body*\nBye", "Sure!\nbody\nBye", "*body*\nBye",
                                                    "Sure!\n*body*", "*body*", "body\nBye", "Sure!\nbody", "body"]
    strict, loose = check_instruction("startend:quotation", {}, 'Here you go:\n"All of it."')
    assert strict == (False, "not wrapped in double quotes") and loose == (True, "")
    strict, loose = check_instruction("punctuation:no_comma", {}, "a, b\nc, d")
    assert strict[0] is False and loose[0] is False
    assert check_instruction("punctuation:no_comma", {}, "  ") == ((False, "empty response"),) * 2


@pytest.mark.parametrize("name, kwargs, problem", [
    ("keywords:teleport", {}, "unknown instruction 'keywords:teleport'"),
    ("punctuation:no_comma", {"num_words": 3}, "punctuation:no_comma takes no num_words"),
    ("length_constraints:number_words", {"relation": "at least"}, "length_constraints:number_words needs num_words"),
    ("length_constraints:number_words", {"num_words": "3", "relation": "at least"},
     "length_constraints:number_words: num_words '3' is not int"),
    ("length_constraints:number_words", {"num_words": 3, "relation": "at most"},
     "length_constraints:number_words: relation 'at most' is not 'less than' or 'at least'"),
])
def test_instructions_that_cannot_be_checked(name, kwargs, problem):
    assert instruction_problem(name, kwargs) == problem
