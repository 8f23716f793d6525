"""A small deterministic language model for tests on 127.0.0.1: a token-level interpolated trigram model over UTF-8
bytes and a few multi-byte pieces, behind an OpenAI-compatible /v1/completions (echo, logprobs, top_logprobs,
text_offset as vLLM answers them), /tokenize, /detokenize and /tokenizer_info (as vLLM serves them)."""
from __future__ import annotations

import json
import math
import threading
from collections import Counter, defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BOS, EOS = 256, 257
PIECES = (" the", "the", " a", "he", "in", "er", "an", "on", ": ", "e ", "s ", ". ", "\n\n", "Answer:", " A", " B")
SPECIALS = {"<s>": BOS, "</s>": EOS}
CORPUS = ("The cat sat on the mat. A man is sitting on a roof and he starts pulling up roofing on the roof. "
          "Question: Which technology was developed most recently?\nAnswer: cellular telephone\n\n"
          "The lady walks to a barbell and lifts the weight over her head. Plants use sunlight to make food. "
          "Water boils at one hundred degrees. The answer is A. The answer is B. Élan, café, naïve: 東京 is a city.")


class NgramModel:
    """p(t | a, b) = 0.6 P3 + 0.3 P2 + 0.1 P1 with add-one unigrams, trained on `corpus` (fallbacks where unseen)."""

    def __init__(self, corpus: str = CORPUS) -> None:
        self.pieces = {piece.encode(): 258 + i for i, piece in enumerate(PIECES)}
        self.size = 258 + len(PIECES)
        self.longest = max(len(p) for p in self.pieces)
        tokens = [BOS, *self.encode(corpus), EOS]
        self.uni = Counter(tokens)
        self.bi: dict[int, Counter] = defaultdict(Counter)
        self.tri: dict[tuple[int, int], Counter] = defaultdict(Counter)
        for a, b, c in zip([BOS, *tokens], tokens, tokens[1:]):
            self.bi[b][c] += 1
            self.tri[(a, b)][c] += 1
        self.total = len(tokens)
        self._best: dict[tuple[int, int], int] = {}
        self.unigram_best = max(range(self.size), key=lambda t: (self.uni[t], -t))

    def encode(self, text: str) -> list[int]:
        """Greedy longest match over the pieces and special tokens, else one token per byte."""
        tokens, data, i = [], text.encode(), 0
        specials = {name.encode(): token for name, token in SPECIALS.items()}
        while i < len(data):
            for length in range(min(self.longest, len(data) - i), 0, -1):
                chunk = data[i:i + length]
                found = specials.get(chunk, self.pieces.get(chunk)) if length > 1 else None
                if found is not None:
                    tokens.append(found)
                    i += length
                    break
            else:
                tokens.append(data[i])
                i += 1
        return tokens

    def piece(self, token: int) -> bytes:
        """A token's bytes; an id past the model's own (another tokenizer's) reads as <id>."""
        if token >= self.size:
            return f"<{token}>".encode()
        if token < 256:
            return bytes([token])
        if token in (BOS, EOS):
            return b"<s>" if token == BOS else b"</s>"
        return PIECES[token - 258].encode()

    def decode(self, tokens: list[int]) -> str:
        return b"".join(self.piece(t) for t in tokens).decode("utf-8", errors="replace")

    def name(self, token: int) -> str:
        """A token's unambiguous name (vLLM's token strings): its text, or <0xNN> for a byte that is not ASCII."""
        if token < 256:
            return chr(token) if token < 128 else f"<0x{token:02X}>"
        return self.piece(token).decode()

    def prob(self, a: int, b: int, t: int) -> float:
        p1 = (self.uni[t] + 1) / (self.total + self.size)
        seen_b = self.bi.get(b)
        p2 = seen_b[t] / sum(seen_b.values()) if seen_b else p1
        seen_ab = self.tri.get((a, b))
        p3 = seen_ab[t] / sum(seen_ab.values()) if seen_ab else p2
        return 0.6 * p3 + 0.3 * p2 + 0.1 * p1

    def logprob(self, a: int, b: int, t: int) -> float:
        return math.log(self.prob(a, b, t))

    def best(self, a: int, b: int) -> int:
        """The most likely next token (lowest id on ties): among those seen after (a, b) or b, or the unigram best."""
        found = self._best.get((a, b))
        if found is None:
            candidates = {*self.tri.get((a, b), ()), *self.bi.get(b, ()), self.unigram_best}
            found = self._best[(a, b)] = max(sorted(candidates), key=lambda t: self.prob(a, b, t))
        return found


class NgramServer:
    """The model behind HTTP. `ignore_echo`: answers only the generated token's log-probs (as llama.cpp's server
    did); `max_model_len`: longer prompts are refused with HTTP 400, as vLLM refuses them."""

    def __init__(self, model: NgramModel | None = None, max_model_len: int = 4096) -> None:
        self.model = model or NgramModel()
        self.max_model_len = max_model_len
        self.ignore_echo = False
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _answer(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path == "/tokenizer_info":
                    self._answer(200, {"bos_token": "<s>", "eos_token": "</s>", "pad_token": None,
                                       "model_max_length": server.max_model_len})
                else:
                    self._answer(404, {"error": "not found"})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"null")
                with server.lock:
                    server.requests.append({"path": self.path, "body": body})
                if self.path == "/tokenize":
                    tokens = server.model.encode(body["prompt"])
                    self._answer(200, {"count": len(tokens), "max_model_len": server.max_model_len, "tokens": tokens})
                elif self.path == "/detokenize":
                    self._answer(200, {"prompt": server.model.decode(body["tokens"])})
                elif self.path == "/v1/completions":
                    status, answer = server.complete(body)
                    self._answer(status, answer)
                else:
                    self._answer(404, {"error": "not found"})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def prompts(self, prompt) -> list[list[int]]:
        """OpenAI's prompt forms: text, token ids, or a list of either."""
        if isinstance(prompt, str):
            return [self.model.encode(prompt)]
        if prompt and all(isinstance(t, int) for t in prompt):
            return [prompt]
        return [self.model.encode(p) if isinstance(p, str) else p for p in prompt]

    def choice(self, index: int, tokens: list[int], echo: bool, top: int) -> dict:
        model = self.model
        context = [BOS, BOS, *tokens]
        generated = model.best(context[-2], context[-1])
        shown = [*tokens, generated] if echo else [generated]
        start = len(tokens) if not echo else 0
        token_logprobs, top_logprobs, offsets, offset = [], [], [], 0
        for position, token in enumerate(shown, start=start):
            a, b = context[position], context[position + 1]
            if position == 0:
                token_logprobs.append(None)
                top_logprobs.append(None)
            else:
                best = model.best(a, b)
                token_logprobs.append(model.logprob(a, b, token))
                alternatives = {model.name(best): model.logprob(a, b, best)} if top else {}
                top_logprobs.append({**alternatives, model.name(token): model.logprob(a, b, token)})
            offsets.append(offset)
            offset += len(model.piece(token).decode("utf-8", errors="replace"))
        return {"index": index, "text": model.decode(shown), "finish_reason": "length", "stop_reason": None,
                "logprobs": {"tokens": [model.name(t) for t in shown], "token_logprobs": token_logprobs,
                             "top_logprobs": top_logprobs, "text_offset": offsets}}

    def complete(self, body: dict) -> tuple[int, dict]:
        prompts = self.prompts(body["prompt"])
        too_long = [len(p) for p in prompts if len(p) + body.get("max_tokens", 16) > self.max_model_len]
        if too_long:
            return 400, {"object": "error", "message": f"This model's maximum context length is {self.max_model_len} "
                                                       f"tokens; the prompt has {too_long[0]}", "code": 400}
        echo = bool(body.get("echo")) and not self.ignore_echo
        choices = [self.choice(i, p, echo, body.get("logprobs") or 0) for i, p in enumerate(prompts)]
        tokens_in = sum(len(p) for p in prompts)
        return 200, {"id": "cmpl-ngram", "object": "text_completion", "created": 0, "model": body.get("model"),
                     "choices": choices, "usage": {"prompt_tokens": tokens_in, "completion_tokens": len(prompts),
                                                   "total_tokens": tokens_in + len(prompts)}}

    def __enter__(self) -> NgramServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
