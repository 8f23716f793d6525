"""The program sandbox's pid 1, started before its program is known: waits for the payload on its control socket,
writes the program's files, checks or builds it, forks the program with its resource limits and reports, on a pipe
only this process holds, when it started (the host's monotonic clock) and how it ended — exit code, signal, CPU
seconds, wall seconds since its start. As pid 1 of its namespace it ignores every signal the program can send (the
kernel drops SIGKILL and SIGSTOP from inside); its children start with the signal dispositions it had. When it ends,
every process left in the sandbox dies. A Python program runs in the forked process itself: as `__main__` reading
stdin, or as a host answering the tests' calls ((name, args, kwargs, nonce) → `{"value"}` / `{"raised"}` /
`{"refused"}` with the call's nonce, or `{"ended"}`) on the two call descriptors."""
import _signal as signal  # the C module: signal.py imports enum, ~3.5 ms of CPU on each sandbox's start
import _socket
import builtins
import os
import resource
import sys
import time

from wire import NotData, dump_line, from_wire, receive_data, to_wire

FD_BYTES = 4  # a descriptor's size in SCM_RIGHTS data (a C int)


def first_line(exc):
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return text[0][:1000] if text else type(exc).__name__


def builtin_type(exc):
    """The nearest builtin exception class of `exc` (a program's own class is sent as the builtin it derives from)."""
    return next(kind for kind in type(exc).__mro__ if kind.__module__ == "builtins").__name__


def ignore_signals():
    """Ignore every signal that can be caught (SIGCHLD kept: wait4 needs it); the dispositions it had, to restore."""
    kept = {}
    for number in signal.valid_signals():
        if number in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):
            continue
        try:
            kept[number] = signal.signal(number, signal.SIG_IGN)
        except (OSError, ValueError):
            continue
    return kept


def restore_signals(kept):
    for number, handler in kept.items():
        signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def set_limits(limits):
    for name, value in limits.items():
        resource.setrlimit(getattr(resource, name), tuple(value) if isinstance(value, (list, tuple)) else (value, value))


def exit_code(exc):
    """What the interpreter exits with for a SystemExit."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a program may have closed or replaced its streams
            pass


def run_main(code):
    """A stdin / stdout program as `__main__`, ended as the interpreter ends it (exit code, traceback on stderr)."""
    status = 0
    try:
        exec(code, {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit as exc:
        status = exit_code(exc)
    except BaseException:  # noqa: BLE001 - the interpreter prints any uncaught exception and exits 1
        print_exception()
        status = 1
    flush()
    os._exit(status)


def print_exception():
    import traceback

    traceback.print_exc()


def answer(call, namespace):
    """The reply to one call (name, args, kwargs): the function's value as data, the exception it raised (its builtin
    base, message and class name), or why neither."""
    name, sent, sent_kwargs = call[:3]
    function = namespace.get(name)
    if not callable(function):
        return {"raised": ["NameError", f"name {name[:100]!r} is not defined"]}
    try:
        args = [from_wire(item) for item in sent]
        kwargs = {key: from_wire(item) for key, item in sent_kwargs.items()}
    except NotData as exc:
        return {"refused": f"arguments: {exc}"}
    try:
        value = function(*args, **kwargs)
    except SystemExit as exc:
        return {"ended": f"exited (code {exc.code}) inside the call"}
    except BaseException as exc:  # noqa: BLE001 - the tests see the exception as its builtin type
        reply = {"raised": [builtin_type(exc), str(exc)[:1000], type(exc).__name__[:100]]}
    else:
        try:
            reply = {"value": to_wire(value)}
        except NotData as exc:
            return {"refused": f"returned {exc}"}
        except BaseException as exc:  # noqa: BLE001 - a value whose conversion raises is no data either
            return {"refused": f"returned a value that raised {type(exc).__name__} when read"}
    changed = [*changed_arguments(enumerate(sent), args), *changed_arguments(sent_kwargs.items(), kwargs)]
    if changed:
        reply["changed"] = changed
    return reply


def changed_arguments(sent, now):
    """[key, data] of each list / dict / set / bytearray argument the call changed in place (to mirror in the tests)."""
    changed = []
    for key, before in sent:
        if type(now[key]) in (list, dict, set, bytearray):
            try:
                after = to_wire(now[key])
            except BaseException:  # noqa: BLE001 - a change to no data is not mirrored
                continue
            if after != before:
                changed.append([key, after])
    return changed


def serve_calls(code, calls_in, calls_out):
    """A function-level program: run once as `__main__`, then each call of the tests answered until they close."""
    reader = os.fdopen(calls_in, "rb")
    send = os.write
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        exec(code, namespace)
    except SystemExit as exc:
        send(calls_out, dump_line({"ended": f"exited (code {exc.code}) before its tests ran"}))
        flush()
        os._exit(exit_code(exc))
    except BaseException as exc:  # noqa: BLE001 - the tests are told why the program ended
        send(calls_out, dump_line({"ended": first_line(exc)}))
        print_exception()
        flush()
        os._exit(1)
    while True:
        call = receive_data(reader)
        if call is None:
            break
        message = answer(call, namespace)
        message["call"] = call[3]  # the nonce the tests sent with this call: a line written before it answers none
        try:
            line = dump_line(message)
        except BaseException as exc:  # noqa: BLE001 - a value whose text cannot be written is no data either
            line = dump_line({"refused": f"returned a value that could not be written ({type(exc).__name__})",
                              "call": call[3]})
        while line:
            line = line[send(calls_out, line):]
        if "ended" in message:
            flush()
            os._exit(1)
    flush()
    os._exit(0)


def build(argv, limits, dispositions):
    """Run a build step (a compiler) to its end under the program's limits: None when it succeeded, else the first
    error line it printed (its whole output bounded to 64 KiB) with the CPU seconds it and the programs it ran spent."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(write_end, 1)
        os.dup2(write_end, 2)
        restore_signals(dispositions)
        set_limits(limits)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(write_end)
    output = b""
    while len(output) < 1 << 16:
        chunk = os.read(read_end, 1 << 14)
        if not chunk:
            break
        output += chunk
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return None
    lines = output.decode("utf-8", "replace").splitlines()
    errors = [line for line in lines if "error" in line.lower()] or lines[-1:] or ["the build failed"]
    return {"syntax": errors[0][:1000], "cpu": round(usage.ru_utime + usage.ru_stime, 3)}


def status_of(wait_status, usage):
    """How a process ended, as the report says it."""
    cpu = round(usage.ru_utime + usage.ru_stime, 3)
    if os.WIFSIGNALED(wait_status):
        return {"signal": os.WTERMSIG(wait_status), "cpu": cpu}
    return {"exit": os.WEXITSTATUS(wait_status), "cpu": cpu}


def receive_program(control_fd):
    """Wait for the program on the control socket: its payload, its stdin (made this process's fd 0, for the program
    to inherit) and, for function-level tests, its two call descriptors; None when evalpipe closed the socket unused."""
    control = _socket.socket(fileno=control_fd)
    _, ancillary, _, _ = control.recvmsg(1, _socket.CMSG_SPACE(4 * FD_BYTES))
    control.close()
    received = []  # read without the array module: it imports collections.abc, ~2 ms at every start
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            received += [int.from_bytes(data[at:at + FD_BYTES], sys.byteorder, signed=True)
                         for at in range(0, len(data) - FD_BYTES + 1, FD_BYTES)]
    if len(received) not in (2, 4):
        return None
    payload_fd, stdin_fd, *calls = received
    os.dup2(stdin_fd, 0)
    os.close(stdin_fd)
    with os.fdopen(payload_fd, "rb") as source:
        return receive_data(source), calls or None


def main():
    dispositions = ignore_signals()
    control_fd, report_fd = int(sys.argv[1]), int(sys.argv[2])
    received = receive_program(control_fd)
    if received is None:
        os._exit(0)
    payload, calls = received
    report = os.fdopen(report_fd, "wb", buffering=0)
    for path, text in payload["files"].items():
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
            handle.write(text)
    code = None
    if payload.get("python"):
        try:
            code = compile(payload["files"][payload["main"]], payload["main"], "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
            report.write(dump_line({"syntax": first_line(exc)}))
            os._exit(0)
    elif payload.get("build"):
        failed = build(payload["build"], payload["limits"], dispositions)
        if failed:
            report.write(dump_line(failed))
            os._exit(0)
    started = time.monotonic()
    report.write(dump_line({"started": started}))
    child = os.fork()
    if child == 0:
        report.close()
        restore_signals(dispositions)
        set_limits(payload["limits"])
        if code is None:
            os.execv(payload["run"][0], payload["run"])
        if calls:
            serve_calls(code, *calls)
        run_main(code)
    for descriptor in calls or ():
        os.close(descriptor)
    while True:
        pid, wait_status, usage = os.wait4(-1, 0)
        if pid == child:
            break
    report.write(dump_line({**status_of(wait_status, usage), "wall": round(time.monotonic() - started, 3)}))
    os._exit(0)


main()
