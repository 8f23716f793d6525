"""Which storage errors are asked again (a connection, a timeout, a 5xx, SlowDown) and for how long: an outage is
retried while it is younger than retry_for, said once, and nothing is retried inside retries_off()."""
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from stages.io import storage_retries
from stages.io.storage_retries import configure_retries, retries_off, retry_transient, transient


def _client_error(status: int, code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}},
                       "GetObject")


@pytest.mark.parametrize(("error", "passes"), [
    (EndpointConnectionError(endpoint_url="http://127.0.0.1:1"), True),
    (ReadTimeoutError(endpoint_url="http://127.0.0.1:1"), True),
    (_client_error(503, "SlowDown"), True), (_client_error(500, "InternalError"), True),
    (_client_error(403, "AccessDenied"), False), (_client_error(404, "NoSuchBucket"), False),
    (_client_error(403, "InvalidAccessKeyId"), False), (ValueError("bad"), False),
])
def test_transient_errors_are_connections_timeouts_and_5xx(error, passes):
    assert transient(error) is passes


def test_an_outage_is_retried_while_younger_than_retry_for_and_said_once(monkeypatch, capsys):
    clock = [1000.0]
    monkeypatch.setattr(storage_retries.time, "monotonic", lambda: clock[0])
    monkeypatch.setitem(storage_retries._STATE, "started", None)
    configure_retries(30)
    error = EndpointConnectionError(endpoint_url="http://127.0.0.1:1")
    assert retry_transient(error)
    clock[0] += 20
    assert retry_transient(error)
    clock[0] += 15  # 35 s into the outage: past retry_for
    assert not retry_transient(error)
    assert capsys.readouterr().err.count("evalpipe: storage unreachable") == 1
    clock[0] += 600  # much later: a new outage, said again
    assert retry_transient(error) and "asking again for up to 30 s" in capsys.readouterr().err
    with retries_off():
        assert not retry_transient(error)
    assert not retry_transient(_client_error(403, "AccessDenied"))
    configure_retries(120)
