"""Runs inside the sandbox (python3 -I runner.py PAYLOAD_FD REPORT_FD): reads the program, its tests and a nonce from
PAYLOAD_FD, closes it, runs the program then the tests in one namespace, and writes the outcome with the nonce to
REPORT_FD only once the tests have run to their end — a program that exits early, or is killed, writes none.
Standard library only: it runs under the sandbox's interpreter, not evalpipe's."""
import json
import os
import resource
import sys


def _first_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def _run(payload: dict) -> tuple[str, str]:
    try:
        program = compile(payload["program"], "solution.py", "exec")
        test = compile(payload["test"], "test.py", "exec") if payload["test"] else None
    except (SyntaxError, ValueError) as exc:
        return "syntax error", _first_line(exc)
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(program, namespace)
        if test is not None:
            exec(test, namespace)
    except SystemExit as exc:
        if test is None and exc.code in (None, 0):  # a stdin / stdout program may end with exit()
            return "ran", ""
        return "failed", f"exited (code {exc.code}) before its tests ran to their end"
    except MemoryError:
        return "out of memory", "MemoryError"
    except BaseException as exc:  # noqa: BLE001 - every failure of the program is its outcome
        return "failed", _first_line(exc)
    return ("passed" if test is not None else "ran"), ""


def main() -> None:
    payload_fd, report_fd = int(sys.argv[1]), int(sys.argv[2])
    with os.fdopen(payload_fd, "rb") as source:
        payload = json.loads(source.read())
    report = os.fdopen(report_fd, "w")
    nonce = payload.pop("nonce")
    for name, value in payload.pop("limits").items():
        resource.setrlimit(getattr(resource, name), (value, value))
    outcome, error = _run(payload)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a program may have closed or replaced its streams
            pass
    report.write(json.dumps({"nonce": nonce, "outcome": outcome, "error": error}) + "\n")
    report.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
