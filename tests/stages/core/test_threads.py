"""Items worked on side by side in threads: results in order, errors raised, only a few items in flight at once."""
import threading
import time

import pytest

from stages.core.threads import map_ahead, usable_cores


def test_map_ahead_keeps_the_items_order_and_holds_few_in_flight():
    started, lock = [], threading.Lock()
    produced = []

    def items():
        for item in range(40):
            produced.append(item)
            yield item

    def slow_square(item):
        with lock:
            started.append(item)
        time.sleep(0.002 * (item % 3))
        return item * item

    seen = []
    for item, square in map_ahead(slow_square, items()):
        assert len(produced) - len(seen) <= max(usable_cores(), 1) + 1  # a few ahead, never the whole stream
        seen.append((item, square))
    assert seen == [(item, item * item) for item in range(40)]
    assert sorted(started) == list(range(40))


def test_an_error_in_one_item_is_raised_where_its_result_is_taken():
    results = map_ahead(lambda key: {"a": 1}[key], ["a", "b", "a"])
    assert next(results) == ("a", 1)
    with pytest.raises(KeyError):
        next(results)
