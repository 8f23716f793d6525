"""Rating scales a judge or a person answers on: labels read from what either wrote, values as the scales give them."""
from stages.raters.scales import ORDINAL_SCALES, SCALES, scale_label


def test_labels_are_read_from_text_and_numbers():
    assert [scale_label(x, "1-10") for x in ("7", 7, 7.0, "6.5", "[7]", "11", True)] == ["7", "7", "7", "6.5", None,
                                                                                       None, None]
    assert scale_label(" correct. ", "correct") == "CORRECT" and scale_label("not attempted", "correct") == \
        "NOT_ATTEMPTED"
    assert scale_label("C", "preference") == "TIE" and scale_label("a", "preference") == "A"
    assert scale_label("**4**", "1-5") == "4" and scale_label("4.5", "1-5") is None


def test_values_and_which_scales_are_ordinal():
    assert SCALES["1-10"]["6.5"] == 6.5 and len(SCALES["1-10"]) == 19
    assert SCALES["five_way"]["A>B"] == 0.75 and SCALES["outcome"]["tie"] == 0.5
    assert set(ORDINAL_SCALES) == {"1-5", "1-10"}


def test_judged_tasks_scales_read_raters_words():
    # SimpleQA's grades and HLE's yes / no are scales of their own, so a raters' file on such a criterion is read, not a
    # KeyError that fails the dataset
    assert scale_label("not_attempted", "simpleqa") == "NOT_ATTEMPTED" and SCALES["simpleqa"]["CORRECT"] == 1.0
    assert [scale_label(x, "hle") for x in ("yes", "No", " YES.", "maybe")] == ["yes", "no", "yes", None]
