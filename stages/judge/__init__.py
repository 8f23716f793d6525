"""Model-graded scoring: criteria with rubrics, the judge's calls (journaled), verdict parsing and scores."""
from ..raters.scales import SCALES
from .asking import JudgeCall, ask_judges, judge_calls, render_fields
from .config import JudgeConfig, read_judge_config
from .criteria import BUILT_IN, Criterion
from .pairwise import PairwiseCall, pairwise_calls, pairwise_rows, pairwise_summary
from .scores import item_verdicts, judge_summary
from .verdicts import Verdict, parse_verdict

__all__ = ["BUILT_IN", "SCALES", "Criterion", "JudgeCall", "JudgeConfig", "PairwiseCall", "Verdict", "ask_judges",
           "item_verdicts", "judge_calls", "judge_summary", "pairwise_calls", "pairwise_rows", "pairwise_summary",
           "parse_verdict", "read_judge_config", "render_fields"]
