"""Generation throughput: N questions against a local OpenAI-compatible server (its own process) that answers each
in ~50 ms, at a given concurrency; answers/s beside the ideal (concurrency / latency).

Usage: python bench/bench_generation.py [--questions 10000] [--concurrency 16] [--latency 0.05]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stages import GenerateConfig, generate_predictions, generation_summary  # noqa: E402


def serve(port_queue: multiprocessing.Queue, latency: float, content: str = "42") -> None:
    """An OpenAI-compatible server answering `content` to every call after `latency` seconds (run it as a process)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            time.sleep(latency)
            data = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}],
                               "usage": {"prompt_tokens": len(body["messages"][-1]["content"].split()),
                                         "completion_tokens": 1}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 256

    httpd = Server(("127.0.0.1", 0), Handler)
    port_queue.put(httpd.server_address[1])
    httpd.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    ports: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(ports, args.latency), daemon=True)
    server.start()
    url = f"http://127.0.0.1:{ports.get(timeout=10)}"
    config = GenerateConfig(protocol="openai", url=url, models=("m",), concurrency=args.concurrency, retries=2)
    cases = [{"id": str(i), "conversation": str(i), "prompt": f"question {i}: how much is 6 × 7?"}
             for i in range(args.questions)]
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "B2_generated.jsonl"
        started = time.perf_counter()
        result = generate_predictions(cases, config, "m", store)
        seconds = time.perf_counter() - started
        summary = generation_summary(store, [case["id"] for case in cases])
    server.terminate()
    rate, ideal = args.questions / seconds, args.concurrency / args.latency
    print(f"{'questions':>10}{'concurrency':>13}{'latency s':>11}{'seconds':>9}{'answers/s':>11}{'ideal/s':>9}"
          f"{'of ideal':>10}")
    print(f"{args.questions:>10,}{args.concurrency:>13}{args.latency:>11.3f}{seconds:>9.1f}{rate:>11.1f}{ideal:>9.0f}"
          f"{rate / ideal:>10.0%}")
    print(f"answers {summary['answers']:,}, rejects {len(result.rejects)}, client-side latency p50 "
          f"{summary['latency_p50']:.3f} s / p95 {summary['latency_p95']:.3f} s, tokens in {summary['tokens_in']:,}")


if __name__ == "__main__":
    main()
