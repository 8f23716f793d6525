"""A stdin program's stdout is compared as it arrives and only its start and digest are kept: 48 cases each printing
1 MB of undecodable bytes (under the 1 MiB cap) hold under 4 MiB at their peak (about 1; 6 when each slot held a
whole stdout, decoded, until its case ended), never every case's output at once."""
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
    assert peak < 4 << 20, f"{peak >> 20} MiB held for {CASES} cases of 1 MB"  # a whole stdout per slot: 6 MiB
