"""evalpipe's evaluation logic: loading, normalization, matching, scoring and reports (no Luigi here)."""
from . import annotation_kind as _annotation_kind  # noqa: F401  (registers the kind)
from . import dialogue as _dialogue  # noqa: F401  (registers the kind)
from . import fact_verification as _fact_verification  # noqa: F401  (registers the kind)
from . import multiple_choice as _multiple_choice  # noqa: F401  (registers the kind)
from . import numeric as _numeric  # noqa: F401  (registers the kind)
from . import qa as _qa  # noqa: F401  (registers the kind)
from .action_layer_evaluator import evaluate_action_layer
from .aggregate import build_dataset_report, build_summary, render_report, score_distribution
from .annotation import aggregate_annotations, evaluate_annotation, overall_score
from .annotation_document import document_problem, normalize_label
from .annotation_kind import load_documents, normalize_document, read_document
from .annotation_metrics import handle_missing_ground_truth, precision_recall_f1
from .boundary_similarity import BoundaryComparison, boundary_similarity, compare_boundaries
from .character_evaluator import evaluate_characters, match_characters
from .choice_extraction import ChoiceExtraction, extract_choice
from .choice_options import find_options, options_from_text
from .classification import classification_report
from .dataset_config import DatasetConfig, read_dataset_config, resolve_params
from .detection import detect_kind
from .event_alignment import EventAlignment, align_events
from .fields import gold_answer_texts, get_ground_truth_answer, get_prediction, get_record_id
from .history import ITEM_COLUMNS, flatten_metrics, history_rows, item_score_columns, parse_night, previous_night, primary_trends
from .generation import AnswerStore, GenerateConfig, generate_predictions, read_generate_config
from .join import join_predictions
from .loading import load_predictions, load_questions
from .multiple_choice import check_answer_match
from .numbers import NumberMention, choose_number, extract_numbers, parse_chinese_numeral
from .numeric import compare_numeric
from .progress import Progress, set_progress_sink, track
from .qa import qa_em_f1, token_f1
from .qa_normalize import normalize_cjk, normalize_squad
from .report_html import render_html_report
from .readers import SUPPORTED_SUFFIXES, iter_records
from .records import Columns, LoadResult, Reject
from .relationship_evaluator import evaluate_relationships, match_relationships, pair_event_relations
from .regression import (
    RegressionSettings,
    compare_metric,
    compare_nights,
    mcnemar_drop_pvalue,
    paired_bootstrap_drop_pvalue,
)
from .registry import Kind, UsageError, get_kind, kind_names, register_kind
from .sentiment_evaluator import evaluate_sentiment, sentiment_polarity
from .taxonomy import (
    invalid_labels,
    load_action_taxonomy,
    load_relationship_taxonomy,
    load_sentiment_taxonomy,
    load_taxonomies,
)
from .text_span import char_position_to_sentence_index, evaluate_text_spans, text_to_sentence_indices
from .verdict import normalize_verdict, strip_think

__all__ = [
    "ITEM_COLUMNS", "aggregate_annotations", "align_events", "AnswerStore", "boundary_similarity", "BoundaryComparison",
    "build_dataset_report", "build_summary", "char_position_to_sentence_index", "check_answer_match",
    "ChoiceExtraction", "choose_number", "classification_report", "Columns", "compare_boundaries",
    "compare_numeric", "DatasetConfig", "detect_kind", "document_problem", "evaluate_action_layer",
    "evaluate_annotation", "evaluate_characters", "evaluate_relationships", "evaluate_sentiment",
    "evaluate_text_spans", "EventAlignment", "extract_choice", "extract_numbers", "find_options", "flatten_metrics", "history_rows", "item_score_columns", "parse_night", "previous_night",
    "primary_trends",
    "generate_predictions", "GenerateConfig", "get_ground_truth_answer", "get_kind", "get_prediction",
    "get_record_id", "gold_answer_texts", "handle_missing_ground_truth", "invalid_labels", "iter_records",
    "join_predictions", "Kind", "kind_names", "load_action_taxonomy", "load_documents", "load_predictions",
    "load_questions", "load_relationship_taxonomy", "load_sentiment_taxonomy", "load_taxonomies", "LoadResult",
    "match_characters", "mcnemar_drop_pvalue", "paired_bootstrap_drop_pvalue", "RegressionSettings",
    "compare_metric", "compare_nights", "match_relationships", "normalize_cjk", "normalize_document", "normalize_label",
    "normalize_squad", "normalize_verdict", "NumberMention", "options_from_text", "overall_score",
    "pair_event_relations", "Progress", "set_progress_sink", "track", "parse_chinese_numeral", "precision_recall_f1", "qa_em_f1", "read_dataset_config",
    "read_document", "read_generate_config", "register_kind", "Reject", "render_html_report", "render_report", "resolve_params",
    "score_distribution", "sentiment_polarity", "strip_think", "SUPPORTED_SUFFIXES", "text_to_sentence_indices", "token_f1", "UsageError",
]
