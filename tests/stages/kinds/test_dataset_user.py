"""dataset.toml's [user]: the user simulator of a kind that asks conversations (tau2), read as [generate]'s
endpoint with one model; required there with [generate], refused by any other kind."""
from pathlib import Path

import pytest

from stages.chat.generation import GenerateConfig
from stages.core.errors import UsageError
from stages.kinds.base import get_kind
from stages.kinds.dataset_generate import read_dataset_user

AGENT = GenerateConfig(protocol="openai", url="http://127.0.0.1:9", models=("m",))


def test_user_reads_as_an_endpoint_with_its_one_model():
    user = read_dataset_user({"url": "http://127.0.0.1:8", "model": "u", "temperature": 0.0}, AGENT,
                             get_kind("tau2"), Path("d"))
    assert (user.url, user.models, user.temperature, user.protocol) == ("http://127.0.0.1:8", ("u",), 0.0, "openai")
    assert read_dataset_user({}, None, get_kind("tau2"), Path("d")) is None  # no [generate]: nothing is asked


@pytest.mark.parametrize("kind, table, generate, said", [
    ("tau2", {}, AGENT, "needs a [user] section"),
    ("tau2", {"url": "http://127.0.0.1:8"}, AGENT, "[user] model"),
    ("tau2", {"url": "http://127.0.0.1:8", "models": ["a", "b"]}, AGENT, "[user] model"),
    ("tau2", {"url": "http://127.0.0.1:8", "model": "u", "temperature": -1}, AGENT, "temperature"),
    ("qa", {"url": "http://127.0.0.1:8", "model": "u"}, AGENT, "asks none"),
])
def test_a_missing_misplaced_or_bad_user_is_said(kind, table, generate, said):
    with pytest.raises(UsageError, match=None) as raised:
        read_dataset_user(table, generate, get_kind(kind), Path("d"))
    assert said in str(raised.value)
