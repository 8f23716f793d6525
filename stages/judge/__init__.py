"""Model-graded scoring: criteria with rubrics, the judge's calls (journaled), verdict parsing and scores."""
from ..raters.scales import SCALES
from .asking import JudgeCall, ask_judges, judge_calls, render_fields
from .config import JudgeConfig, read_judge_config
from .criteria import BUILT_IN, Criterion
from .pairwise import PairwiseCall, pairwise_calls, pairwise_rows, pairwise_summary
from .scores import item_verdicts, judge_summary
from .tasks import JudgedTask, judged_task, read_judge_reply
from .verdicts import Verdict, parse_verdict

__all__ = ["BUILT_IN", "SCALES", "Criterion", "JudgeCall", "JudgeConfig", "JudgedTask", "PairwiseCall", "Verdict",
           "ask_judges", "item_verdicts", "judge_calls", "judge_summary", "judged_task", "pairwise_calls",
           "pairwise_rows", "pairwise_summary", "parse_verdict", "read_judge_config", "read_judge_reply",
           "render_fields"]
