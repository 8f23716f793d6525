"""The nightly tests' inputs folder."""
import pytest

from tests.pipeline.nightly.claims import CLAIMS, QUESTIONS, gold
from tests.pipeline.workspace import write_jsonl


@pytest.fixture
def inputs(tmp_path):
    """inputs/claims (fact verification) and inputs/capitals (qa), questions only: predict() writes a night's."""
    inputs = tmp_path / "inputs"
    write_jsonl(inputs / "claims" / "questions.jsonl",
                [{"id": i, "claim": f"claim {i}", "label": gold(i)} for i in range(CLAIMS)])
    (inputs / "claims" / "dataset.toml").write_text('kind = "fact_verification"\n')
    write_jsonl(inputs / "capitals" / "questions.jsonl",
                [{"id": f"q{i}", "question": f"question {i}?", "answers": [f"answer number {i}"]}
                 for i in range(QUESTIONS)])
    return inputs
