"""The retry policy: unit tests of its delays, and the clients against a stub server that answers
503 with Retry-After, then 200 (the real node cannot be made to answer 503 on demand)."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from railgun import (
    UNREACHABLE,
    AsyncClient,
    BadRequestError,
    EventReply,
    Railgun,
    RetryPolicy,
    TransportError,
    UnavailableError,
)
from railgun import TIMEOUT as TIMEOUT_CODE

from stub import StubNode

REPLY = '{"eventId": "e1", "metrics": {"n": 1}}'
DUPLICATE = '{"eventId": "e1", "metrics": {"n": 1}, "duplicate": true}'
BUSY = '{"error": {"code": "timeout", "message": "no reply from the tasks within 10s"}}'
EVENT = {"id": "e1", "ts": 1_700_000_000_000, "card": "c1", "amount": 12.5}

# No jitter: the waits are exactly b/2 (random() = 0) or b (random() -> 1).
LOW = RetryPolicy(max_attempts=4, initial_backoff=0.2, max_backoff=1.0, random=lambda: 0.0)


def test_backoff_doubles_up_to_the_cap_with_jitter_in_the_upper_half():
    high = RetryPolicy(max_attempts=9, initial_backoff=0.2, max_backoff=1.0, random=lambda: 0.999999)
    assert [LOW.delay(n) for n in (1, 2, 3, 4, 5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    assert [round(high.delay(n), 4) for n in (1, 2, 3, 4)] == [0.2, 0.4, 0.8, 1.0]


def test_retry_after_is_a_floor_capped_by_max_retry_after():
    assert LOW.delay(1, retry_after=2.0) == 2.0
    assert LOW.delay(3, retry_after=0.0) == 0.4
    assert RetryPolicy(max_retry_after=5.0, random=lambda: 0.0).delay(1, retry_after=3600) == 5.0


def test_policy_arguments_are_checked():
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError):
        RetryPolicy(initial_backoff=2.0, max_backoff=1.0)
    assert RetryPolicy.none().max_attempts == 1
    assert RetryPolicy.exponential(3, 0.5, 4.0) == RetryPolicy(max_attempts=3, initial_backoff=0.5, max_backoff=4.0)


def test_a_503_is_retried_after_retry_after_with_the_same_event():
    waits = []
    with StubNode() as node, Railgun(node.url, retry=LOW, sleep=waits.append) as rg:
        node.reply(503, BUSY, {"Retry-After": "1"}).reply(503, BUSY, {"Retry-After": "1"}).reply(200, DUPLICATE)

        reply = rg.send("payments", EVENT)

    assert reply.duplicate and reply.metrics == {"n": 1}
    assert waits == [1.0, 1.0]  # Retry-After: 1 is more than the backoff (0.1, 0.2)
    bodies = [r.body for r in node.requests]
    assert len(bodies) == 3 and len(set(bodies)) == 1  # the same bytes, so the same event id
    assert json.loads(bodies[0]) == EVENT


def test_without_retry_after_the_waits_are_the_backoff():
    waits = []
    with StubNode() as node, Railgun(node.url, retry=LOW, sleep=waits.append) as rg:
        node.reply(502, "bad gateway").reply(503, BUSY).reply(504, "").reply(200, f"[{REPLY}]")
        assert rg.send_batch("payments", [EVENT]) == [EventReply("e1", {"n": 1})]
    assert waits == [0.1, 0.2, 0.4]


def test_after_max_attempts_the_last_error_is_raised_with_its_attempts():
    waits = []
    with StubNode() as node, Railgun(node.url, retry=LOW, sleep=waits.append) as rg:
        for _ in range(5):
            node.reply(503, BUSY, {"Retry-After": "0"})
        with pytest.raises(UnavailableError) as e:
            rg.read("payments", "card_sum_5m", card="c1")
    assert (e.value.status, e.value.code, e.value.attempts, e.value.retry_after) == (503, "timeout", 4, 0.0)
    assert e.value.retriable
    assert len(node.requests) == 4 and len(waits) == 3


def test_a_client_mistake_is_not_retried():
    with StubNode() as node, Railgun(node.url, retry=LOW, sleep=lambda s: None) as rg:
        node.reply(400, '{"error": {"code": "invalid_value", "message": "amount: expected a number"}}')
        with pytest.raises(BadRequestError) as e:
            rg.send("payments", EVENT)
    assert e.value.attempts == 1 and not e.value.retriable and len(node.requests) == 1


def test_adding_metrics_is_not_repeated_after_a_503():
    # the definition may have been made: a second POST would be 400 duplicate_metric
    with StubNode() as node, Railgun(node.url, retry=LOW, sleep=lambda s: None) as rg:
        node.reply(503, '{"error": {"code": "control_unavailable", "message": "try later"}}', {"Retry-After": "1"})
        with pytest.raises(UnavailableError):
            rg.add_metrics("payments", "SELECT COUNT(*) FROM payments GROUP BY card [RANGE 1 HOUR]")
        with pytest.raises(UnavailableError):
            node.reply(503, BUSY)
            rg.delete_stream("payments")
    assert len(node.requests) == 2


def test_no_retry_policy_sends_once():
    with StubNode() as node, Railgun(node.url, retry=None) as rg:
        node.reply(503, BUSY, {"Retry-After": "1"})
        with pytest.raises(UnavailableError) as e:
            rg.send("payments", EVENT)
    assert e.value.attempts == 1 and e.value.retry_after == 1.0


def test_a_read_timeout_is_retried_with_the_same_event():
    waits = []
    with StubNode() as node, Railgun(node.url, retry=LOW, timeout=0.3, sleep=waits.append) as rg:
        node.reply(200, REPLY, delay=1.5).reply(200, DUPLICATE)
        reply = rg.send("payments", EVENT)
    assert reply.duplicate
    assert len(node.requests) == 2 and node.requests[0].body == node.requests[1].body
    assert waits == [0.1]


def test_a_read_timeout_without_retries_is_a_transport_error():
    with StubNode() as node, Railgun(node.url, retry=None, timeout=0.3) as rg:
        node.reply(200, REPLY, delay=1.5)
        with pytest.raises(TransportError) as e:
            rg.send("payments", EVENT)
    assert (e.value.status, e.value.code, e.value.retriable) == (0, TIMEOUT_CODE, True)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_is_retried_even_for_a_change_then_raised():
    waits = []
    with Railgun(f"http://127.0.0.1:{closed_port()}", retry=LOW, sleep=waits.append) as rg:
        assert rg.health() is False
        with pytest.raises(TransportError) as e:
            rg.add_metrics("payments", "SELECT COUNT(*) FROM payments GROUP BY card [RANGE 1 HOUR]")
    assert (e.value.status, e.value.code, e.value.attempts) == (0, UNREACHABLE, 4)
    assert waits == [0.1, 0.2, 0.4]


def test_async_client_retries_a_503_with_the_same_event():
    waits = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    async def scenario():
        async with AsyncClient(node.url, retry=LOW, sleep=record) as rg:
            return await rg.send("payments", EVENT)

    with StubNode() as node:
        node.reply(503, BUSY, {"Retry-After": "2"}).reply(200, DUPLICATE)
        reply = asyncio.run(scenario())
    assert reply.duplicate and waits == [2.0]
    assert node.requests[0].body == node.requests[1].body
