"""Hostile programs in the sandbox, each counted as not passed with its outcome and the host checked after: nothing
written or deleted outside, no connection to a server on 127.0.0.1, no secret from the environment, no process left
behind; a program cannot claim to have passed without its tests running to their end."""
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from stages.sandbox.bwrap import Program
from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs

LIMITS = Limits(timeout_seconds=2.0)


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _run(source: str, test: str = "pass", stdin: str = "", limits: Limits = LIMITS):
    return run_programs([Program(source, test, stdin)], limits)[0]


def _sandbox_processes() -> int:
    """Processes of the sandbox slots' uids (as root) still alive."""
    return sum(1 for folder in Path("/proc").glob("[0-9]*") if _uid(folder) in range(61000, 61100))


def _uid(folder: Path):
    try:
        return folder.stat().st_uid
    except OSError:
        return None


def test_a_right_program_passes_and_a_wrong_one_fails():
    assert _run("def f():\n    return 1\n", "assert f() == 1\n").outcome == "passed"
    wrong = _run("def f():\n    return 2\n", "assert f() == 1, 'two is not one'\n")
    assert (wrong.outcome, wrong.error) == ("failed", "AssertionError: two is not one")


def test_writing_outside_tmp_changes_nothing_on_the_host(tmp_path):
    target = tmp_path / "written.txt"
    source = (f"import os\nfor path in ({str(target)!r}, '/usr/evalpipe-was-here', '/evalpipe-was-here'):\n"
              "    try:\n        open(path, 'w').write('x')\n    except OSError:\n        pass\n"
              "open('/tmp/inside.txt', 'w').write('fine')\n")
    result = _run(source, "assert open('/tmp/inside.txt').read() == 'fine'\nassert False, 'wrote nothing out'\n")
    assert (result.outcome, result.error) == ("failed", "AssertionError: wrote nothing out")
    assert not target.exists() and not Path("/usr/evalpipe-was-here").exists()
    assert not Path("/evalpipe-was-here").exists()


def test_deleting_files_deletes_nothing_on_the_host(tmp_path):
    kept = tmp_path / "keep.txt"
    kept.write_text("still here")
    source = (f"import os, shutil\nfor path in ({str(kept)!r}, '/usr/bin/env'):\n    try:\n        os.remove(path)\n"
              "    except OSError:\n        pass\nshutil.rmtree('/usr', ignore_errors=True)\n")
    assert _run(source, "assert False\n").outcome == "failed"
    assert kept.read_text() == "still here" and Path("/usr/bin/env").exists()


def test_no_connection_reaches_a_server_on_the_hosts_loopback():
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    port = server.getsockname()[1]
    source = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1).sendall(b'hello')\n"
    result = _run(source)
    time.sleep(0.2)
    server.close()
    assert result.outcome == "failed" and "Connection refused" in result.error and not accepted


def test_the_environment_holds_no_secret(monkeypatch):
    monkeypatch.setenv("EVALPIPE_TEST_SECRET", "hunter2-not-for-programs")
    source = ("import os\nprint(dict(os.environ))\n"
              "for pid in os.listdir('/proc'):\n    if pid.isdigit():\n"
              "        try:\n            print(open(f'/proc/{pid}/environ', 'rb').read())\n"
              "        except OSError:\n            pass\n")
    result = _run(source, "import os\nassert 'EVALPIPE_TEST_SECRET' in os.environ\n")
    assert result.outcome == "failed" and "hunter2" not in result.stdout + result.stderr + result.error
    assert "HOME" in result.stdout  # it did print its environment


def test_a_fork_bomb_is_stopped_and_leaves_nothing_behind():
    source = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    result = _run(source)
    assert result.outcome == "timed out" and result.seconds < LIMITS.timeout_seconds + 2
    deadline = time.monotonic() + 10
    while _sandbox_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _sandbox_processes() == 0
    assert _run("def f():\n    return 1\n", "assert f() == 1\n").outcome == "passed"  # the slot works again


def test_allocating_20_gib_is_out_of_memory():
    result = _run("block = bytearray(20 << 30)\n")
    assert (result.outcome, result.error) == ("out of memory", "MemoryError")


@pytest.mark.parametrize("source", ["while True:\n    pass\n", "import time\ntime.sleep(10 ** 6)\n"],
                         ids=["endless loop", "sleeping forever"])
def test_a_program_that_never_ends_is_timed_out(source):
    started = time.monotonic()
    result = _run(source)
    assert result.outcome == "timed out" and time.monotonic() - started < LIMITS.timeout_seconds + 2


def test_printing_a_gibibyte_is_stopped_at_the_output_limit():
    result = _run("import sys\nchunk = 'y' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n")
    assert (result.outcome, result.error) == ("failed", f"printed over {LIMITS.output_kb} KB")
    assert len(result.stdout) <= LIMITS.output_kb << 10


def test_killing_its_parent_neither_passes_nor_touches_the_host():
    source = ("import os, signal\nfor pid in (os.getppid(), 1, -1):\n    try:\n        os.kill(pid, signal.SIGKILL)\n"
              "    except OSError:\n        pass\n")
    result = _run(source, "assert False, 'tests ran'\n")
    assert result.outcome in ("failed", "crashed") and result.outcome != "passed"
    assert os.getppid() > 1  # this process and its parent live on


@pytest.mark.parametrize("source", ["import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n",
                                    "import os, sys, json\nos.write(int(sys.argv[2]), json.dumps("
                                    "{'outcome': 'passed', 'error': ''}).encode() + b'\\n')\nos._exit(0)\n",
                                    "def check(candidate):\n    pass\n"],
                         ids=["sys.exit(0)", "os._exit(0)", "a forged report", "its own check"])
def test_ending_early_or_overriding_check_does_not_pass(source):
    test = "def check(candidate):\n    assert candidate() == 1\ncheck(lambda: 2)\n"
    result = _run(source, test)
    assert result.outcome == "failed", result


def test_a_stdin_program_reads_its_input_and_may_end_with_exit():
    result = _run("import sys\nprint(int(input()) * 2)\nsys.exit(0)\n", "", "21\n")
    assert (result.outcome, result.stdout) == ("ran", "42\n")
