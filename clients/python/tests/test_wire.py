"""What goes on the wire and how answers become values or exceptions, without a node
(httpx.MockTransport), and TLS against a stub server with a self-signed certificate."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import ssl
import subprocess

import httpx
import pytest

from railgun import (
    BAD_RESPONSE,
    BadRequestError,
    BadResponseError,
    ConflictError,
    EventReply,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    Railgun,
    RailgunError,
    Readiness,
    ServerError,
    StreamSpec,
    TransportError,
    UnauthorizedError,
    UnavailableError,
    UNREACHABLE,
)

from stub import StubNode


def client_answering(status, body, headers=None, seen=None, token=None):
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        return httpx.Response(status, content=body.encode("utf-8"), headers=headers or {})

    return Railgun("http://node:7070/", token=token, retry=None, transport=httpx.MockTransport(handler))


def error(code, message="m"):
    return json.dumps({"error": {"code": code, "message": message}})


@pytest.mark.parametrize(
    "status,code,cls",
    [
        (400, "invalid_value", BadRequestError),
        (401, "unauthorized", UnauthorizedError),
        (403, "forbidden", ForbiddenError),
        (404, "unknown_stream", NotFoundError),
        (405, "method_not_allowed", RailgunError),
        (409, "incompatible_schema_change", ConflictError),
        (409, "backfilling", ConflictError),
        (413, "batch_too_large", PayloadTooLargeError),
        (415, "unsupported_media_type", RailgunError),
        (500, "internal", ServerError),
        (503, "kafka_unavailable", UnavailableError),
    ],
)
def test_each_status_has_its_exception_with_the_nodes_code_and_message(status, code, cls):
    with client_answering(status, error(code, "what is wrong and how to fix it")) as rg:
        with pytest.raises(cls) as e:
            rg.stream("payments")
    assert type(e.value) is cls
    assert (e.value.status, e.value.code, e.value.message) == (status, code, "what is wrong and how to fix it")
    assert e.value.retriable == (status == 503)
    assert str(e.value) == f"{code} (HTTP {status}): what is wrong and how to fix it"


def test_a_query_error_gives_its_position():
    message = "GROUP BY field 'country' is not a field at line 1, column 37 (near ...). Hint: ..."
    with client_answering(400, error("unknown_field", message)) as rg:
        with pytest.raises(BadRequestError) as e:
            rg.add_metrics("payments", "SELECT ...")
    assert (e.value.line, e.value.column) == (1, 37)


def test_an_answer_that_is_not_the_error_object_keeps_its_text():
    with client_answering(502, "<html>Bad Gateway</html>", {"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}) as rg:
        with pytest.raises(UnavailableError) as e:
            rg.streams()
    assert (e.value.code, e.value.message, e.value.retry_after) == ("http_502", "<html>Bad Gateway</html>", None)


def test_a_2xx_answer_of_another_shape_is_a_bad_response():
    with client_answering(200, '{"unexpected": true}') as rg:
        with pytest.raises(BadResponseError) as e:
            rg.send("payments", {"id": "e1"})
    assert e.value.code == BAD_RESPONSE and not e.value.retriable


def test_requests_carry_json_headers_token_and_encoded_names():
    seen = []
    reply = '{"metric": "sum", "key": {"card": "a b/c", "online": true, "mcc": null}, "value": 1.5, "streamTime": 7}'
    with client_answering(200, reply, seen=seen, token="s3cret") as rg:
        rg.read("pay ments", "sum/1", {"card": "a b/c", "online": True}, mcc=None)
    request = seen[0]
    assert request.method == "GET"
    assert request.url.raw_path == b"/v1/streams/pay%20ments/metrics/sum%2F1?card=a%20b%2Fc&online=true&mcc"
    assert request.headers["Authorization"] == "Bearer s3cret"
    assert request.headers["Accept"] == "application/json"


def test_events_are_encoded_as_spec_3_3_values():
    seen = []
    with client_answering(200, '{"eventId": "e1", "metrics": {}}', seen=seen) as rg:
        rg.send(
            "payments",
            {
                "id": "e1",
                "ts": dt.datetime(2024, 1, 1, 10, 0, 0, 500000, tzinfo=dt.timezone.utc),
                "amount": float("nan"),
                "qty": 3,
                "online": False,
                "note": "é",
            },
        )
    request = seen[0]
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.content) == {
        "id": "e1",
        "ts": "2024-01-01T10:00:00.500+00:00",
        "amount": None,
        "qty": 3,
        "online": False,
        "note": "é",
    }


def test_values_without_a_json_form_are_refused_before_sending():
    with client_answering(200, "{}") as rg:
        with pytest.raises(ValueError, match="time zone"):
            rg.send("payments", {"id": "e1", "ts": dt.datetime(2024, 1, 1)})
        with pytest.raises(ValueError, match="finite"):
            rg.send("payments", {"id": "e1", "amount": float("inf")})
        with pytest.raises(TypeError, match="amount"):
            rg.send("payments", {"id": "e1", "amount": object()})


def test_a_stream_spec_leaves_unset_attributes_to_the_node():
    spec = StreamSpec(fields={"id": "string", "card": "string"}, event_id="id", partitioners=["card"])
    assert spec.to_json() == {"fields": {"id": "string", "card": "string"}, "eventId": "id", "partitioners": ["card"]}


def test_an_event_reply_reads_its_flags():
    late = EventReply.from_json({"eventId": 7, "metrics": {"n": 2}, "dropped": "late"})
    assert (late.event_id, late["n"], late.duplicate, late.dropped, late.counted) == (7, 2, False, "late", False)


@pytest.fixture
def self_signed(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "node.pem", tmp_path / "node.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )
    return cert, key


def test_tls_with_the_nodes_certificate_as_ca_bundle(self_signed):
    cert, key = self_signed
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    with StubNode(tls) as node:
        node.reply(200, '{"eventId": "e1", "metrics": {"n": 1}}')
        with Railgun(node.url, verify=str(cert), token="t", retry=None) as trusting:
            assert trusting.send("payments", {"id": "e1"}).metrics == {"n": 1}
        assert node.requests[0].headers["Authorization"] == "Bearer t"
        with Railgun(node.url, retry=None) as default_trust:
            with pytest.raises(TransportError) as e:
                default_trust.streams()
        assert e.value.code == UNREACHABLE


def test_readiness_a_503_not_ready_is_an_answer_and_stopping_an_error():
    with client_answering(200, '{"status":"ready","tasks":16,"reasons":[]}') as rg:
        assert rg.ready() == Readiness(True, "ready", 16, [])
    not_ready = '{"status":"not_ready","tasks":16,"reasons":["task payments/card-3: replaying its input"]}'
    seen = []
    with client_answering(503, not_ready, {"Retry-After": "1"}, seen=seen) as rg:
        ready = rg.ready()
    assert (ready.ready, ready.status, ready.reasons) == (False, "not_ready", ["task payments/card-3: replaying its input"])
    assert [r.url.raw_path for r in seen] == [b"/health/ready"]
    with client_answering(503, error("stopping", "the node is stopping")) as rg:
        with pytest.raises(UnavailableError) as e:
            rg.ready()
    assert e.value.code == "stopping"


def test_liveness_and_the_openapi_description():
    seen = []
    with client_answering(200, '{"openapi": "3.1.0", "paths": {}}', seen=seen) as rg:
        assert rg.live() is True
        assert rg.openapi()["openapi"] == "3.1.0"
    assert [r.url.raw_path for r in seen] == [b"/health/live", b"/v1/openapi.json"]
    with client_answering(404, error("not_found")) as rg:
        assert rg.live() is False
