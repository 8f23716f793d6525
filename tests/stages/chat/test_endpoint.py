"""The settings [generate] and [judge] share: numbers within their bounds, texts as text, one line otherwise."""
import pytest

from stages.chat.endpoint import CLIENT_NUMBERS, CLIENT_TEXTS, Endpoint, check_settings
from stages.core.errors import UsageError


def test_good_settings_pass_and_each_bad_one_is_named():
    check_settings({"timeout": 2.5, "retries": 0, "concurrency": 4, "url": "http://127.0.0.1:1"}, CLIENT_NUMBERS,
                   CLIENT_TEXTS, "d.toml", "generate")
    for name, value, what in (("concurrency", 0, "a whole number"), ("retries", -1, "a whole number"),
                              ("timeout", "60", "a number"), ("max_tokens", True, "a whole number"),
                              ("max_tokens", 2.5, "a whole number")):
        with pytest.raises(UsageError, match=rf"^d.toml: \[judge\] {name} = .* must be {what} ≥ \d$"):
            check_settings({name: value}, CLIENT_NUMBERS, CLIENT_TEXTS, "d.toml", "judge")
    with pytest.raises(UsageError, match=r"\[judge\] system_prompt must be text"):
        check_settings({"system_prompt": 3}, CLIENT_NUMBERS, CLIENT_TEXTS, "d.toml", "judge")


def test_every_bad_setting_is_said_at_once_in_one_line():
    with pytest.raises(UsageError) as raised:
        check_settings({"max_tokens": "4096", "retries": 2, "timeout": -1, "system_prompt": 3}, CLIENT_NUMBERS,
                       CLIENT_TEXTS, "d.toml", "generate")
    assert str(raised.value) == ("d.toml: [generate] timeout = -1 must be a number ≥ 0; [generate] max_tokens = '4096' "
                                 "must be a whole number ≥ 1; [generate] system_prompt must be text")


def test_an_endpoint_keeps_the_keys_variable_not_the_key():
    endpoint = Endpoint(protocol="openai", url="http://127.0.0.1:1", api_key_env="MY_KEY")
    assert (endpoint.retries, endpoint.concurrency, endpoint.circuit_breaker) == (3, 1, 10)
    assert "MY_KEY" in repr(endpoint) and not hasattr(endpoint, "api_key")
