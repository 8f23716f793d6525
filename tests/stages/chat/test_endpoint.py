"""The settings [generate] and [judge] share: numbers within their bounds, texts as text, one line otherwise."""
import pytest

from stages.chat.endpoint import CLIENT_NUMBERS, CLIENT_TEXTS, Endpoint, check_settings
from stages.core.errors import UsageError


def test_good_settings_pass_and_each_bad_one_is_named():
    check_settings({"timeout": 2.5, "retries": 0, "concurrency": 4, "url": "http://127.0.0.1:1"}, CLIENT_NUMBERS,
                   CLIENT_TEXTS, "d.toml", "generate")
    for name, value in (("concurrency", 0), ("retries", -1), ("timeout", "60"), ("max_tokens", True)):
        with pytest.raises(UsageError, match=rf"d.toml: \[judge\] {name} = .* must be a number ≥"):
            check_settings({name: value}, CLIENT_NUMBERS, CLIENT_TEXTS, "d.toml", "judge")
    with pytest.raises(UsageError, match=r"\[judge\] system_prompt must be text"):
        check_settings({"system_prompt": 3}, CLIENT_NUMBERS, CLIENT_TEXTS, "d.toml", "judge")


def test_an_endpoint_keeps_the_keys_variable_not_the_key():
    endpoint = Endpoint(protocol="openai", url="http://127.0.0.1:1", api_key_env="MY_KEY")
    assert (endpoint.retries, endpoint.concurrency, endpoint.circuit_breaker) == (3, 1, 10)
    assert "MY_KEY" in repr(endpoint) and not hasattr(endpoint, "api_key")
