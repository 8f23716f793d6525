"""evalpipe's evaluation logic, by concern: core, io and text at the bottom, kinds above them, report and nightly on
top (no Luigi here). The public API below is imported on first use, so `import stages` and its subpackages stay cheap."""
from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "core.errors": ("UsageError",),
    "core.progress": ("Progress", "set_progress_sink", "track"),
    "core.ratios": ("precision_recall_f1",),
    "core.records": ("Columns", "LoadResult", "Reject"),
    "io.artifacts": ("read_artifact",),
    "io.dataset_config": ("DatasetConfig", "read_dataset_config", "resolve_params"),
    "io.fields": ("get_ground_truth_answer", "get_prediction", "get_record_id", "gold_answer_texts"),
    "chat.endpoint": ("Endpoint",),
    "chat.generation": ("GenerateConfig", "generate_predictions", "generation_summary", "read_generate_config"),
    "chat.journal": ("AnswerStore",),
    "kinds.loglikelihood.loglikelihoods": ("Loglikelihoods", "ask_loglikelihoods"),
    "kinds.loglikelihood.rolling": ("RollingLoglikelihoods", "ask_rolling", "rolling_windows"),
    "chat.completions": ("CompletionsClient", "EchoRefused"),
    "chat.prompts": ("render_prompt",),
    "io.join": ("join_predictions",),
    "judge": ("JudgeCall", "JudgeConfig", "JudgedTask", "PairwiseCall", "Verdict", "ask_judges", "item_verdicts",
              "judge_calls", "judge_summary", "judged_task", "pairwise_calls", "pairwise_rows", "pairwise_summary",
              "parse_verdict", "read_judge_config", "read_judge_reply", "render_fields"),
    "io.loading": ("load_predictions", "load_questions"),
    "io.readers": ("SUPPORTED_SUFFIXES", "iter_records"),
    "kinds": ("Kind", "get_kind", "kind_names", "register_kind"),
    "kinds.math.equivalence": ("compare_answers",),
    "kinds.math.final_answer": ("extract_final_answer",),
    "kinds.sampling": ("majority_right", "pass_at_k"),
    "kinds.function_calling.verdicts": ("item_verdict", "decode_reply"),
    "kinds.function_calling.checker": ("check_calls",),
    "kinds.function_calling.summary": ("bfcl_summary",),
    "kinds.loglikelihood.figures": ("choice_picks", "lm_eval_stderr"),
    "kinds.loglikelihood.items": ("load_items",),
    "kinds.loglikelihood.perplexity": ("corpus_sums", "perplexity_figures"),
    "kinds.loglikelihood.tasks": ("build_item", "hellaswag_preprocess", "task_form"),
    "report.sampling": ("sampling_summary",),
    "text.reasoning": ("answers_after_reasoning", "split_reasoning"),
    "kinds.annotation.action_layer": ("evaluate_action_layer",),
    "kinds.annotation.boundary_similarity": ("BoundaryComparison", "boundary_similarity", "compare_boundaries"),
    "kinds.annotation.characters": ("evaluate_characters", "match_characters"),
    "kinds.annotation.document": ("document_problem", "handle_missing_ground_truth", "normalize_label"),
    "kinds.annotation.evaluate": ("aggregate_annotations", "evaluate_annotation", "overall_score"),
    "kinds.annotation.event_alignment": ("EventAlignment", "align_events"),
    "kinds.annotation.kind": ("load_documents", "normalize_document", "read_document"),
    "kinds.annotation.relationships": ("evaluate_relationships", "match_relationships", "pair_event_relations"),
    "kinds.annotation.sentiment": ("evaluate_sentiment", "sentiment_polarity"),
    "kinds.annotation.taxonomy": (
        "invalid_labels", "load_action_taxonomy", "load_relationship_taxonomy", "load_sentiment_taxonomy",
        "load_taxonomies",
    ),
    "kinds.annotation.text_span": (
        "char_position_to_sentence_index", "evaluate_text_spans", "text_to_sentence_indices",
    ),
    "kinds.detection": ("detect_kind",),
    "kinds.dialogue.similarity": ("similarity_scores",),
    "kinds.fact_verification.classification": ("classification_report",),
    "kinds.multiple_choice.extraction": ("ChoiceExtraction", "extract_choice"),
    "kinds.multiple_choice.gpqa": ("gpqa_letter",),
    "kinds.multiple_choice.kind": ("check_answer_match",),
    "kinds.multiple_choice.mmlu_pro": ("MmluProAccuracy", "mmlu_pro_accuracy", "mmlu_pro_letter"),
    "kinds.multiple_choice.options": ("find_options", "options_from_text"),
    "kinds.numeric.scoring": ("compare_numeric",),
    "kinds.qa": ("qa_em_f1", "token_f1"),
    "nightly.history": (
        "ITEM_COLUMNS", "flatten_metrics", "history_rows", "item_score_columns", "judge_item_columns",
        "leaderboard_item_columns", "pairwise_item_columns", "parse_night",
        "previous_night", "primary_trends",
    ),
    "nightly.multiplicity": ("adjust_pvalues",),
    "nightly.regression": (
        "RegressionSettings", "compare_metric", "compare_nights", "mcnemar_drop_pvalue",
        "paired_bootstrap_drop_pvalue", "sign_flip_drop_pvalue",
    ),
    "nightly.runs": ("parameter_changes", "run_item_scores", "scoring_parameters"),
    "report.aggregate": ("build_dataset_report", "build_summary", "render_report", "score_distribution"),
    "report.html": ("render_html_page", "render_html_report"),
    "report.item_files": ("ReportPage", "write_report_page"),
    "text.normalize": ("normalize_cjk", "normalize_squad"),
    "text.numbers": ("NumberMention", "NumberReading", "choose_number", "extract_numbers", "parse_chinese_numeral",
                     "read_number"),
    "text.verdict": ("VerdictReading", "normalize_verdict", "read_verdict", "strip_think"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'stages' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
