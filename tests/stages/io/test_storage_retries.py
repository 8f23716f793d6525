"""Which storage errors are asked again (a connection, a timeout, a 5xx, SlowDown) and for how long: a request is
retried while neither it nor its outage has lasted retry_for; an outage is said once, and its end once."""
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from stages.io import storage_retries
from stages.io.storage_retries import BACKOFF_CAP, configure_retries, retry_delay, transient


def _client_error(status: int, code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}},
                       "GetObject")


def _answer(status: int, code: str = "") -> tuple[None, dict]:
    return None, {"Error": {"Code": code}, "ResponseMetadata": {"HTTPStatusCode": status}}


@pytest.mark.parametrize(("error", "passes"), [
    (EndpointConnectionError(endpoint_url="http://127.0.0.1:1"), True),
    (ReadTimeoutError(endpoint_url="http://127.0.0.1:1"), True),
    (_client_error(503, "SlowDown"), True), (_client_error(500, "InternalError"), True),
    (_client_error(403, "AccessDenied"), False), (_client_error(404, "NoSuchBucket"), False),
    (_client_error(403, "InvalidAccessKeyId"), False), (ValueError("bad"), False),
])
def test_transient_errors_are_connections_timeouts_and_5xx(error, passes):
    assert transient(error) is passes


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(storage_retries.time, "monotonic", lambda: now[0])
    monkeypatch.setitem(storage_retries._STATE, "down_since", None)
    configure_retries(30)
    yield now
    configure_retries(120)


def test_a_request_is_retried_with_growing_jittered_waits_while_failing_for_less_than_retry_for(clock, capsys,
                                                                                              monkeypatch):
    request: dict = {"context": {}}
    error = EndpointConnectionError(endpoint_url="http://127.0.0.1:1")
    waits = []
    for attempts in range(1, 7):
        waits.append(retry_delay(attempts, caught_exception=error, request_dict=request))
        clock[0] += 4
    assert all(0.25 * 2 ** (n - 1) <= wait <= min(BACKOFF_CAP, 0.5 * 2 ** (n - 1))
               for n, wait in enumerate(waits[:5], start=1)), waits
    monkeypatch.setattr(storage_retries.random, "uniform", lambda low, high: high)  # the longest jittered wait: 10 s
    assert retry_delay(7, caught_exception=error, request_dict=request) == pytest.approx(30 - 24)  # not past retry_for
    clock[0] = 1000.0 + 30
    assert retry_delay(8, caught_exception=error, request_dict=request) is None  # 30 s failing: botocore's call
    assert retry_delay(1, caught_exception=error, request_dict={"context": {}}) is None  # sent anew: same outage
    assert retry_delay(1, response=_answer(200), request_dict={}) is None  # the storage answers: the outage ends
    assert retry_delay(1, caught_exception=error, request_dict={"context": {}}) is not None  # a new one
    assert capsys.readouterr().err.count("evalpipe: storage unreachable (EndpointConnectionError); asking again "
                                         "for up to 30 s") == 2


def test_5xx_answers_are_retried_refusals_and_successes_are_not_and_an_answer_ends_the_outage(clock, capsys):
    assert retry_delay(1, response=_answer(503, "SlowDown"), request_dict={}) > 0
    assert retry_delay(1, response=_answer(500, "InternalError"), request_dict={}) > 0
    assert retry_delay(1, caught_exception=_client_error(403, "AccessDenied"), request_dict={}) is None
    clock[0] += 21
    assert retry_delay(1, response=_answer(200), request_dict={}) is None
    err = capsys.readouterr().err.splitlines()
    assert err == ["evalpipe: storage unreachable (SlowDown); asking again for up to 30 s",
                   "evalpipe: storage answering again after 21 s"]
    assert retry_delay(1, response=_answer(404, "NoSuchKey"), request_dict={}) is None
    assert retry_delay(1, response=_answer(503, "SlowDown"), request_dict={}) > 0  # a new outage, said again
    assert "storage unreachable (SlowDown)" in capsys.readouterr().err


def test_the_shared_session_takes_the_environments_keys_of_now(monkeypatch):
    import asyncio

    from stages.io.storage_retries import retrying_session

    session = retrying_session()
    keys = []
    for key in ("first-key", "second-key"):
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", key)
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", f"{key}-secret")
        keys.append(asyncio.run(session.get_credentials()).access_key)
    assert keys == ["first-key", "second-key"] and retrying_session() is session


def test_a_forked_task_process_says_its_own_outage(monkeypatch):
    import os

    monkeypatch.setitem(storage_retries._STATE, "down_since", 1000.0)  # the parent is in an outage
    child = os.fork()
    if child == 0:
        os._exit(0 if storage_retries._STATE["down_since"] is None else 1)
    assert os.waitpid(child, 0)[1] == 0 and storage_retries._STATE["down_since"] == 1000.0
