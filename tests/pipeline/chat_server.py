"""A chat server for tests on 127.0.0.1: seed 003's /chat + /reset and OpenAI's /v1/chat/completions, with
injected faults."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        pass  # a client that timed out on a delayed answer closes the socket: expected here


class ChatServer:
    """Answers "<model> says: <message> [turn N]", or `replies[text]` when the message contains `text` (or what
    `answer(message)` says, when set), with the first token's `logprobs(message)` when the request asks for logprobs
    and the `fingerprint` as its system_fingerprint when set.
    `dies_after` kills it mid-run. `faults` is
    consumed one per chat request: 500, 400, "malformed", ("delay", seconds), ("429", retry_after_seconds) or None;
    messages containing ALWAYS500 always fail. OpenAI answers carry token usage (words in and out)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.faults: list = []
        self.replies: dict[str, str] = {}
        self.answer = None  # or a function of the message giving the reply
        self.logprobs = None  # or a function of the message giving the first token's {token: logprob}
        self.fingerprint = None  # or the system_fingerprint its answers carry
        self.reasoning = None  # or a function of the message giving (reasoning_content, finish_reason) to answer with
        self.honours_n = False  # True: a request's `n` gets n choices (answer(message) asked for each)
        self.tool_calls = None  # or a function of (message, the request's tools) giving the tool calls to answer with
        self.agent = None  # or a function of (the request's messages, its tools) giving the tool calls to answer with
        self.dies_after = None  # or N: the server dies (its port closed) as it sends its N-th chat answer
        self.times: list[float] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                with server.lock:
                    server.times.append(time.monotonic())
                    server.requests.append({"path": self.path, "body": body,
                                            "authorization": self.headers.get("Authorization")})
                    fault = server.faults.pop(0) if self.path != "/reset" and server.faults else None
                if self.path == "/reset":
                    return self._send(200, b'{"status": "ok"}')
                message = body["message"] if self.path == "/chat" else body["messages"][-1]["content"]
                if fault == 500 or "ALWAYS500" in message:
                    return self._send(500, b"internal error")
                if fault == 400:
                    return self._send(400, b"bad request")
                if fault == "malformed":
                    return self._send(200, b"<html>not json</html>")
                if isinstance(fault, tuple) and fault[0] == "429":
                    return self._send(429, b"slow down", {"Retry-After": str(fault[1])})
                if isinstance(fault, tuple):
                    time.sleep(fault[1])
                reply = server.answer(message) if server.answer is not None else next(
                    (answer for text, answer in server.replies.items() if text in message), None)
                if self.path == "/chat":
                    answer = {"response": reply or f"{body['model_config_name']} says: {message}"}
                else:
                    turn = (len(body["messages"]) + 1) // 2
                    content = reply or f"{body['model']} says: {message} [turn {turn}]"
                    answer = {"choices": [{"message": {"role": "assistant", "content": content}}],
                              "usage": {"prompt_tokens": sum(len((m.get("content") or "").split())
                                                                    for m in body["messages"]),
                                        "completion_tokens": len(content.split())}}
                    answer["model"] = body["model"]
                    if server.honours_n and body.get("n", 1) > 1:
                        more = [server.answer(message) if server.answer is not None else content
                                for _ in range(body["n"] - 1)]
                        answer["choices"] += [{"message": {"role": "assistant", "content": text}} for text in more]
                    if server.fingerprint is not None:
                        answer["system_fingerprint"] = server.fingerprint
                    calls = server.tool_calls(message, body.get("tools")) if server.tool_calls is not None else None
                    if server.agent is not None:
                        calls = server.agent(body["messages"], body.get("tools"))
                    if calls:
                        answer["choices"][0]["message"].update(content=None, tool_calls=calls)
                        answer["choices"][0]["finish_reason"] = "tool_calls"
                    if server.reasoning is not None:
                        thought, finish = server.reasoning(message)
                        choice = answer["choices"][0]
                        choice["message"]["reasoning_content"] = thought
                        choice["finish_reason"] = finish
                        if reply == "":
                            choice["message"]["content"] = None
                    if body.get("logprobs") and server.logprobs is not None:
                        top = server.logprobs(message)
                        answer["choices"][0]["logprobs"] = {"content": [{"token": content[:1], "top_logprobs": [
                            {"token": token, "logprob": value} for token, value in top.items()]}]}
                if server.dies_after is not None and len(server.chats()) >= server.dies_after:
                    server.httpd.shutdown()  # from this request's own thread: serve_forever runs in another
                    server.httpd.server_close()  # every later request is refused
                self._send(200, json.dumps(answer, ensure_ascii=False).encode())

            def _send(self, status: int, data: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def chats(self) -> list[dict]:
        return [r for r in self.requests if r["path"] != "/reset"]
