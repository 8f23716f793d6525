"""names_only: a reply that names its one mentioned option, decided without option_mentions only where
option_mentions would name that option and find the reply equal to none."""
import random

from stages.kinds.multiple_choice.extraction import compared_option_text, reply_text
from stages.kinds.multiple_choice.option_mentions import names_only, option_mentions

BODIES = ["时白林", "Paris", "paris", "37.8°C", "维生素C", "the Eiffel tower", "C++", "ab", "是", "Straße", "İstanbul",
          "none of the above", "3", "1000000", "水彩画"]
AROUND = ["", "I think ", " is the most likely answer, so D.", "不是", "not ", "except ", "我认为", "是对的", "x", "1", " ",
          "。因为它最合适", ". Because", "!", "s", "'", "，", "A项不对，", "符合题意。故选D", "NOT ", "isn't ", "?"]


def built(rng: random.Random) -> tuple[str, str]:
    body = compared_option_text(rng.choice(BODIES))
    shown = rng.choice([body, body, body, body.lower(), body.upper()])
    parts = [rng.choice(AROUND) for _ in range(rng.randrange(0, 3))] + [shown] + \
            [rng.choice(AROUND) for _ in range(rng.randrange(0, 3))]
    if rng.random() < 0.2:
        parts += [rng.choice(AROUND), rng.choice([body, body.lower(), body.upper()])]
        rng.shuffle(parts)
    return reply_text("".join(parts)), body


def test_a_reply_names_only_finds_is_named_by_option_mentions_and_equal_to_none():
    rng = random.Random(17)
    taken = 0
    for _ in range(30_000):
        text, body = built(rng)
        if not text or not names_only(text, body):
            continue
        taken += 1
        mentions = option_mentions(text, {"B": body})
        assert (mentions.equal, mentions.named) == ((), ("B",)), (text, body)
    assert taken > 5_000


def test_replies_option_mentions_reads_otherwise_are_left_to_it():
    cases = [("I think Paris is the answer", "Paris", True), ("时白林", "时白林", False), ("时白林。因为它最合适", "时白林", False),
             ("PARIS.", "Paris", False), ("不是时白林", "时白林", False), ("not Paris", "Paris", False),
             ("Parisian food", "Paris", False), ("时白林和时白林", "时白林", False), ("I think paris", "Paris", False),
             ("它是对的", "是", False), ("Paris. Because", "Paris", False), ("go to Paris. Because", "Paris", True),
             ("PARIS. I like Paris", "Paris", False), ("I like Paris. PARIS", "Paris", True)]
    assert [(text, body, names_only(text, body)) for text, body, _ in cases] == cases
