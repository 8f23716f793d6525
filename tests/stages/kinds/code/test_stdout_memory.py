"""A stdin program's stdout is compared as each case ends and only its start is kept: 48 cases each printing 1 MB of
undecodable bytes (under the 1 MiB cap) hold a bounded amount of memory, not every case's output at once."""
import tracemalloc

from stages.kinds.code.kind import Code

CASES = 48
FLOOD = "import sys\nsys.stdout.buffer.write(b'\\xff' * 1_048_000)\n"


def test_large_outputs_are_compared_as_they_end_and_not_all_kept(bwrap):
    code = Code()
    params = {**code.defaults, "parallel": 2, "timeout_seconds": 20.0}
    normalized = {"id": ["flood"], "program": [FLOOD], "how": ["whole reply"], "prelude": [""], "entry_point": [None],
                  "test": [None], "inputs": [["\n"] * CASES], "outputs": [["\ufffd" * 1_048_000] * CASES]}
    tracemalloc.start()
    try:
        matched, _ = code.match(normalized, params)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert matched["outcome"] == ["passed"]  # each case's \xff bytes read as U+FFFD, as the expected output says
    assert len(matched["stdout"][0]) <= 4096 + 200
    assert peak < 40 << 20, f"{peak >> 20} MiB held for {CASES} cases of 1 MB"  # every output kept: over 96 MiB
