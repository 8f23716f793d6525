"""Host memory of a stdin / stdout dataset whose program prints ~1 MB of undecodable bytes per case (under the 1 MiB
output cap): evalpipe's resident memory before and at its peak across the code kind's B4 (issue 83: 1.37 GB for 600
cases when every case's stdout was kept decoded until B4 ended).

Usage: python bench/bench_stdout_memory.py [--cases 600] [--workers 2]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from stages import get_kind  # noqa: E402

FLOOD = "import sys\nsys.stdout.buffer.write(b'\\xff' * 1_048_000)\n"


def resident_mib(field: str) -> float:
    """VmRSS (now) or VmHWM (the peak) of this process, in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    code = get_kind("code")
    params = {**code.defaults, "parallel": args.workers, "timeout_seconds": 20.0}
    normalized = {"id": ["flood"], "program": [FLOOD], "how": ["whole reply"], "prelude": [""],
                  "entry_point": [None], "test": [None], "inputs": [["\n"] * args.cases],
                  "outputs": [["\ufffd" * 1_048_000] * args.cases]}
    before, started = resident_mib("VmRSS"), time.monotonic()
    matched, _ = code.match(normalized, params)
    peak = resident_mib("VmHWM")
    print(f"{args.cases} cases × 1,048,000 bytes: outcome {matched['outcome'][0]}, RSS {before:.0f} MiB before, "
          f"peak {peak:.0f} MiB (+{peak - before:.0f}), {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
