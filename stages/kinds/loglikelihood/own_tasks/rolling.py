"""`task = "rolling"`: a text corpus scored by each document's rolling loglikelihood, as lm-eval's wikitext scores
it — B1's documents, B4's words and bytes, B5's word / byte perplexity and bits per byte, B6 ranked by word
perplexity. The kind hands a dataset of this task every stage; the rows, stats and figures it makes say they are its."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ....core.records import Columns, LoadResult
from ....core.stats import Stats
from ....core.text_table import format_table
from ..detokenizers import DETOKENIZERS
from ..live import ask_documents
from ..perplexity import PERPLEXITY_FIGURES, byte_count, corpus_sums, perplexity_figures, word_count
from . import OwnTask, register_task

TASK = "rolling"


class RollingTask(OwnTask):
    """The rolling-loglikelihood task: documents with no gold, one loglikelihood each."""

    name = TASK
    headline_metrics = PERPLEXITY_FIGURES

    def item(self, record: Any, params: dict[str, Any]) -> dict[str, Any]:
        """A document: its text (`text_field`; detokenized when asked) as the question, the text as written as the
        one choice (its words and bytes counted), no continuations (the whole text is scored), no gold."""
        text = record.get(params["text_field"]) if isinstance(record, dict) else None
        if not isinstance(text, str) or not text:
            raise ValueError(f"{params['text_field']} is not a non-empty text")
        asked = DETOKENIZERS[params["detokenize"]](text) if params.get("detokenize") else text
        return {"question": asked, "golds": [], "choices": [text], "continuations": [], "gold": None, "subject": None,
                "contexts": None}

    def ask(self, questions: Columns, config: Any, model: str, journal: Path) -> tuple[LoadResult, dict[str, Any]]:
        """B2: each document's rolling loglikelihood (live.ask_documents)."""
        return ask_documents(questions, config, model, journal)

    def match(self, normalized: Columns) -> tuple[Columns, dict[str, Any]]:
        """B4: each document's loglikelihood, words and bytes."""
        lls = [found[0] if found is not None else None for found in normalized["loglikelihoods"]]
        texts = [choices[0] for choices in normalized["choices"]]
        out = {"id": normalized["id"], "subject": normalized["subject"], "gold": normalized["gold"],
               "loglikelihoods": normalized["loglikelihoods"], "loglikelihood": lls,
               "words": [word_count(text) for text in texts], "bytes": [byte_count(text) for text in texts],
               "status": ["missing" if ll is None else "scored" for ll in lls]}
        return out, {"statuses": dict(Counter(out["status"]))}

    def score(self, matched: Columns) -> tuple[Columns, dict[str, Any]]:
        return {"id": matched["id"], "loglikelihood": matched["loglikelihood"]}, self.metrics_from_stats(
            self.score_stats(matched))

    def score_stats(self, matched: Columns) -> Stats:
        sums = corpus_sums(matched["loglikelihood"], matched["words"], matched["bytes"])
        return {"documents": sums, "answered": sums["scored"]}

    def metrics_from_stats(self, stats: Stats) -> dict[str, Any]:
        sums = stats["documents"]
        rows = sums["rows"]
        return {"rows": rows, **perplexity_figures(sums), "loglikelihood": sums["loglikelihood"],
                "words": sums["words"], "bytes": sums["bytes"], "answer_rate": sums["scored"] / rows if rows else None}

    def item_view(self, matched: dict[str, Any]) -> tuple[str, str]:
        return "scored", f"loglikelihood {matched['loglikelihood']:.3f} over {matched['words']} words, " \
                         f"{matched['bytes']} bytes"

    def compare(self, metrics_by_model: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """Lower word perplexity first, undefined last."""
        ranking = sorted(metrics_by_model, key=lambda m: (metrics_by_model[m].get("word_perplexity") is None,
                                                           metrics_by_model[m].get("word_perplexity") or 0.0))
        return {"primary_metric": "word_perplexity", "ranking": ranking}

    def render(self, models: dict[str, dict[str, Any]]) -> str:
        return format_table(["model", "documents", *PERPLEXITY_FIGURES], [
            [model, str(m["rows"]), *(f"{m[f]:.4f}" if m.get(f) is not None else "-" for f in PERPLEXITY_FIGURES)]
            for model, m in models.items()])


ROLLING = register_task(RollingTask())
