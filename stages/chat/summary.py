"""What asking a server took, in the one shape every asker returns (live generation, BFCL's agent, tau2's agent and
user simulator, both loglikelihood loops, the judge): answers, failures by kind (outage.error_kind), p50 / p95
latency, tokens, cost, answers cut at max_tokens; each asker adds its own counts."""
from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from .costs import money
from .outage import error_kind


def asking_summary(records: list[dict[str, Any]], price: dict[str, float] | None = None,
                   **own: Any) -> dict[str, Any]:
    """The summary of these journal records (one per request asked or failed); `own` adds an asker's counts or
    replaces a figure it counts its own way (the loglikelihood loops' tokens out)."""
    answered = [record for record in records if "prediction" in record]
    failures = Counter(error_kind(record.get("error", "not asked")) for record in records
                       if "prediction" not in record)
    latencies = sorted(r["latency"] for r in answered if isinstance(r.get("latency"), (int, float)))
    tokens_in = sum(r.get("tokens_in") or 0 for r in answered)
    tokens_out = own.get("tokens_out", sum(r.get("tokens_out") or 0 for r in answered))
    return {
        "answers": len(answered), "failures": dict(failures),
        "latency_p50": statistics.median(latencies) if latencies else None,
        "latency_p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] if latencies else None,
        "tokens_in": tokens_in, "tokens_out": tokens_out, "cost": money(tokens_in, tokens_out, price),
        "cut_at_max_tokens": sum(r.get("finish_reason") == "length" for r in answered), **own,
    }
