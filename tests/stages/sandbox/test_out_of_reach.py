"""What one sandbox cannot reach: its pid 1 (the supervisor that reports how the program ended) by any signal or
prlimit, and the state that other sandboxes could read through a /usr file they all see (locks, the page cache)."""
import platform

import pytest

from stages.sandbox.limits import Limits
from stages.sandbox.pool import run_programs
from stages.sandbox.run import Program

LIMITS = Limits(timeout_seconds=6.0)
X86_64 = pytest.mark.skipif(platform.machine() != "x86_64", reason="system call numbers of x86-64")


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap):
    return bwrap


def _stdin(source: str, language: str = "python", limits: Limits = LIMITS):
    return run_programs([Program(source, language=language)], limits)[0]


PYTHON_AT_PID_1 = """import os, resource, signal, time
said = []
for name, call in [
        ("kill", lambda: os.kill(1, signal.SIGINT)),
        ("term", lambda: os.kill(1, signal.SIGTERM)),
        ("pidfd", lambda: signal.pidfd_send_signal(os.pidfd_open(1), signal.SIGINT)),
        ("prlimit", lambda: resource.prlimit(1, resource.RLIMIT_NOFILE, (3, 3)))]:
    try:
        call()
        said.append(name + " reached pid 1")
    except PermissionError:
        said.append(name + " refused")
signal.signal(signal.SIGINT, signal.SIG_IGN)
os.kill(0, signal.SIGINT)  # its process group, pid 1 in it
time.sleep(0.3)
print(", ".join(said))
"""


def test_a_python_program_cannot_signal_or_limit_its_supervisor():
    result = _stdin(PYTHON_AT_PID_1)
    said = "kill refused, term refused, pidfd refused, prlimit refused\n"
    assert (result.outcome, result.stdout) == ("ran", said), result


def test_a_cpp_program_s_own_system_call_does_not_reach_pid_1():
    source = ('#include <csignal>\n#include <cstdio>\n#include <unistd.h>\n#include <sys/syscall.h>\n'
              'int main() {\n  long killed;\n'
              '  asm volatile ("syscall" : "=a"(killed) : "0"(62L), "D"(1L), "S"((long)SIGINT)\n'
              '                : "rcx", "r11", "memory");\n'
              '  signal(SIGINT, SIG_IGN);\n  kill(0, SIGINT);\n  usleep(300000);\n'
              '  std::printf("kill returned %ld\\n", killed);\n}\n')
    result = _stdin(source, "cpp", Limits(timeout_seconds=6.0, build_seconds=120.0))
    assert (result.outcome, result.stdout) == ("ran", "kill returned -1\n"), result


def test_a_node_program_cannot_signal_its_supervisor():
    source = ('let said;\ntry { process.kill(1, "SIGINT"); said = "reached pid 1"; }\n'
              'catch (error) { said = error.code; }\nsetTimeout(() => console.log(said), 300);\n')
    result = _stdin(source, "javascript")
    assert (result.outcome, result.stdout) == ("ran", "EPERM\n"), result


LOCKS = """import fcntl, os, time
handle = open("/usr/bin/python3", "rb")
said = []
for name, call in [("flock", lambda: fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                   ("lockf", lambda: fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                   ("getlk", lambda: fcntl.fcntl(handle, fcntl.F_GETLK, bytes(32))),
                   ("ofd", lambda: fcntl.fcntl(handle, fcntl.F_OFD_SETLK, bytes(32)))]:
    try:
        call()
        said.append(name + " held")
    except PermissionError:
        said.append(name + " refused")
    except OSError as exc:
        said.append(name + " " + type(exc).__name__)
"""


def test_two_programs_in_parallel_slots_cannot_pass_a_bit_through_a_lock():
    holder = LOCKS.replace("LOCK_SH", "LOCK_EX") + "time.sleep(1.5)\nprint(', '.join(said))\n"
    prober = ("import fcntl, time\ntime.sleep(0.7)\nhandle = open('/usr/bin/python3', 'rb')\n"
              "try:\n    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)\n    print('free')\n"
              "except BlockingIOError:\n    print('the other holds it')\n"
              "except PermissionError:\n    print('refused')\n")
    results = run_programs([Program(holder), Program(prober)], LIMITS, workers=2)
    assert [(result.outcome, result.stdout) for result in results] == [
        ("ran", "flock refused, lockf refused, getlk refused, ofd refused\n"), ("ran", "refused\n")], results


@X86_64
def test_page_cache_probes_and_evictions_are_refused():
    source = """import ctypes, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
descriptor = os.open("/usr/bin/python3", os.O_RDONLY)
mapped = mmap.mmap(descriptor, 4096, prot=mmap.PROT_READ)
address = ctypes.addressof(ctypes.c_char.from_buffer_copy(b"x"))
vector = ctypes.create_string_buffer(1)
said = []
try:
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    said.append("fadvise ran")
except PermissionError:
    said.append("fadvise refused")
for name, number, arguments in [("readahead", 187, (descriptor, 0, 4096)),
                                ("mincore", 27, (ctypes.c_void_p(address & ~4095), 4096, vector)),
                                ("cachestat", 451, (descriptor, None, None, 0))]:
    returned = libc.syscall(number, *arguments)
    said.append(f"{name} {returned} {ctypes.get_errno()}")
print(", ".join(said))
"""
    result = _stdin(source)
    said = "fadvise refused, readahead -1 1, mincore -1 1, cachestat -1 1\n"
    assert (result.outcome, result.stdout) == ("ran", said), result
