"""The n-gram completions server the loglikelihood tests ask, and a [generate] config pointing at it."""
from collections.abc import Callable

import pytest

from stages.chat.generation import GenerateConfig, read_generate_config
from tests.pipeline.ngram_server import NgramServer


@pytest.fixture
def server():
    with NgramServer() as running:
        yield running


@pytest.fixture
def completions_config(server) -> Callable[..., GenerateConfig]:
    """A completions [generate] for the server's model `ngram`, with the settings given."""
    return lambda **extra: read_generate_config(
        {"protocol": "completions", "url": server.url, "models": ["ngram"], **extra}, "test")
