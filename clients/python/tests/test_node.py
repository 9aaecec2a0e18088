"""Every endpoint against a real node (PYTEST_RAILGUN_URL), with values computed by hand."""

from __future__ import annotations

import pytest

from railgun import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    Railgun,
    StreamSpec,
    UnauthorizedError,
)

from conftest import T0, admin_token, ingest_token, max_body_bytes, payments_spec, unique

SECOND = 1000


def event(id, seconds, card, merchant, amount, country, qty):
    return {"id": id, "ts": T0 + seconds * SECOND, "card": card, "merchant": merchant, "amount": amount,
            "country": country, "qty": qty}


def test_health_and_prometheus_metrics(rg: Railgun):
    assert rg.health() is True
    assert "# TYPE railgun_tasks gauge" in rg.node_metrics()


def test_stream_lifecycle(rg: Railgun, fresh_stream: str):
    spec = payments_spec()
    created = rg.create_stream(fresh_stream, spec)
    assert created.created is True
    assert created.stream == StreamSpec(
        fields=spec.fields, event_id="id", partitioners=["card", "merchant"], timestamp="ts", partitions=2,
        lateness="0s", late_events="drop", retention="0s", name=fresh_stream,
    )
    # the same definition again: 200, nothing changes
    assert rg.create_stream(fresh_stream, spec).created is False
    # a field appended: 200, the field is added
    grown = payments_spec(fields={**spec.fields, "online": "boolean"})
    assert rg.create_stream(fresh_stream, grown).created is False
    assert list(rg.stream(fresh_stream).fields) == ["id", "ts", "card", "merchant", "amount", "country", "qty", "online"]
    assert fresh_stream in [s.name for s in rg.streams()]

    with pytest.raises(ConflictError) as e:
        rg.create_stream(fresh_stream, payments_spec(fields={**spec.fields, "amount": "long", "online": "boolean"}))
    assert (e.value.status, e.value.code) == (409, "incompatible_schema_change")
    with pytest.raises(ConflictError) as e:
        rg.create_stream(fresh_stream, payments_spec(fields=grown.fields, partitions=3))
    assert (e.value.status, e.value.code) == (409, "incompatible_stream_change")

    rg.delete_stream(fresh_stream)
    with pytest.raises(NotFoundError) as e:
        rg.stream(fresh_stream)
    assert (e.value.status, e.value.code) == (404, "unknown_stream")


def test_input_retention_round_trips(rg: Railgun, fresh_stream: str):
    # Railgun's extension: how long Kafka keeps the stream's input; shown only when not the node's default
    assert rg.create_stream(fresh_stream, payments_spec(input_retention="30d")).created is True
    assert rg.stream(fresh_stream).input_retention == "30d"
    with pytest.raises(BadRequestError) as e:
        rg.create_stream(unique("py"), payments_spec(input_retention="10s"))
    assert e.value.code == "invalid_input_retention"


def test_bad_definitions_are_400(rg: Railgun):
    with pytest.raises(BadRequestError) as e:
        rg.create_stream("-no", payments_spec())
    assert e.value.code == "invalid_stream_name"
    with pytest.raises(BadRequestError) as e:
        rg.create_stream(unique("py"), payments_spec(fields={"id": "string", "card": "text"}, timestamp=None))
    assert e.value.code == "invalid_field_type"


def test_a_small_stream_step_by_step(rg: Railgun, fresh_stream: str):
    s = fresh_stream
    rg.create_stream(s, payments_spec())
    assert rg.add_metrics(
        s, f"SELECT SUM(amount) AS card_sum_5m, COUNT(*) AS card_count_5m, MAX(amount) AS card_max_5m "
           f"FROM {s} GROUP BY card [RANGE 5 MINUTES]"
    ) == ["card_sum_5m", "card_count_5m", "card_max_5m"]
    assert rg.add_metrics(s, f"SELECT COUNT(DISTINCT country) AS card_countries_1h FROM {s} GROUP BY card [RANGE 1 HOUR]") \
        == ["card_countries_1h"]
    assert rg.add_metrics(
        s, f"SELECT AVG(amount) AS merchant_avg_1d, SUM(qty) AS merchant_qty_1d FROM {s} GROUP BY merchant [RANGE 1 DAY]"
    ) == ["merchant_avg_1d", "merchant_qty_1d"]
    listed = rg.metrics(s)
    assert [m.name for m in listed] == ["card_sum_5m", "card_count_5m", "card_max_5m", "card_countries_1h",
                                        "merchant_avg_1d", "merchant_qty_1d"]
    assert (listed[4].partitioner, listed[4].group_by) == ("merchant", ["merchant"])
    assert listed[0].statement.startswith("SELECT SUM(amount) AS card_sum_5m")

    # values: card metrics over (T-5m, T] and (T-1h, T]; merchant ones over the day; T = the event's time
    r1 = rg.send(s, event("e1", 0, "c1", "m1", 10.0, "FR", 1))
    assert (r1.event_id, r1.counted) == ("e1", True)
    assert r1.metrics == {"card_sum_5m": 10.0, "card_count_5m": 1, "card_max_5m": 10.0, "card_countries_1h": 1,
                          "merchant_avg_1d": 10.0, "merchant_qty_1d": 1}
    r2 = rg.send(s, event("e2", 60, "c1", "m2", 20.5, "DE", 2))
    assert r2.metrics == {"card_sum_5m": 30.5, "card_count_5m": 2, "card_max_5m": 20.5, "card_countries_1h": 2,
                          "merchant_avg_1d": 20.5, "merchant_qty_1d": 2}
    r3 = rg.send(s, event("e3", 120, "c2", "m1", 5.0, "FR", 3))
    assert r3.metrics == {"card_sum_5m": 5.0, "card_count_5m": 1, "card_max_5m": 5.0, "card_countries_1h": 1,
                          "merchant_avg_1d": 7.5, "merchant_qty_1d": 4}
    # 400 s: e1 (0 s) and e2 (60 s) have left c1's 5-minute window, not its hour
    r4 = rg.send(s, event("e4", 400, "c1", "m1", 1.5, "FR", 4))
    assert r4.metrics == {"card_sum_5m": 1.5, "card_count_5m": 1, "card_max_5m": 1.5, "card_countries_1h": 2,
                          "merchant_avg_1d": 5.5, "merchant_qty_1d": 8}
    assert isinstance(r4.metrics["card_count_5m"], int) and isinstance(r4.metrics["card_sum_5m"], float)

    # the same event again: not counted, the current values (as a retried send would get)
    dup = rg.send(s, event("e2", 60, "c1", "m2", 20.5, "DE", 2))
    assert (dup.duplicate, dup.dropped, dup.counted) == (True, None, False)
    assert dup.metrics == {"card_sum_5m": 1.5, "card_count_5m": 1, "card_max_5m": 1.5, "card_countries_1h": 2,
                           "merchant_avg_1d": 20.5, "merchant_qty_1d": 2}
    # lateness 0s: an event behind its partitions' stream time is dropped
    late = rg.send(s, event("e0", 10, "c1", "m1", 100.0, "US", 9))
    assert (late.duplicate, late.dropped, late.counted) == (False, "late", False)
    assert late.metrics["card_sum_5m"] == 1.5 and late.metrics["merchant_qty_1d"] == 8

    # point reads: the value at the partition's stream time, without an event
    read = rg.read(s, "card_sum_5m", card="c1")
    assert (read.metric, read.key, read.value, read.stream_time) == ("card_sum_5m", {"card": "c1"}, 1.5, T0 + 400 * SECOND)
    assert rg.read(s, "merchant_avg_1d", {"merchant": "m1"}).value == 5.5
    assert rg.read(s, "CARD_COUNT_5M", card="never-seen").value == 0  # names ignore case; COUNT of nothing is 0
    assert rg.read(s, "card_max_5m", card=None).key == {"card": None}

    # a batch: replies in order; c2's window at 500 s no longer holds e3 (120 s)
    b = rg.send_batch(s, [event("b1", 500, "c2", "m2", 4.0, "FR", 1), event("b2", 510, "c2", "m2", 6.0, "US", 1)])
    assert [r.event_id for r in b] == ["b1", "b2"]
    assert b[0].metrics == {"card_sum_5m": 4.0, "card_count_5m": 1, "card_max_5m": 4.0, "card_countries_1h": 1,
                            "merchant_avg_1d": 12.25, "merchant_qty_1d": 3}
    assert b[1].metrics == pytest.approx({"card_sum_5m": 10.0, "card_count_5m": 2, "card_max_5m": 6.0,
                                          "card_countries_1h": 2, "merchant_avg_1d": 30.5 / 3, "merchant_qty_1d": 4},
                                         rel=1e-9)
    again = rg.send_batch(s, [event("b1", 500, "c2", "m2", 4.0, "FR", 1), event("b2", 510, "c2", "m2", 6.0, "US", 1)])
    assert [r.duplicate for r in again] == [True, True]
    assert rg.send_batch(s, []) == []
    assert [r.event_id for r in rg.send_many(s, (event(f"m{i}", 600 + i, "c3", "m3", 1.0, "FR", 1) for i in range(5)),
                                             batch_size=2)] == ["m0", "m1", "m2", "m3", "m4"]
    assert rg.read(s, "card_count_5m", card="c3").value == 5

    # one bad event refuses the whole batch, naming its index; nothing of it is counted
    with pytest.raises(BadRequestError) as e:
        rg.send_batch(s, [event("x1", 700, "c4", "m1", 1.0, "FR", 1), {**event("x2", 701, "c4", "m1", 1.0, "FR", 1),
                                                                         "amount": "1.5"}])
    assert e.value.code == "invalid_value" and e.value.message.startswith("events[1].amount")
    assert rg.read(s, "card_count_5m", card="c4").value == 0

    # deleting a metric: it leaves the replies
    rg.delete_metric(s, "card_max_5m")
    assert "card_max_5m" not in rg.send(s, event("e5", 800, "c1", "m1", 1.0, "FR", 1)).metrics
    with pytest.raises(NotFoundError) as e:
        rg.delete_metric(s, "card_max_5m")
    assert (e.value.status, e.value.code) == (404, "unknown_metric")


def test_errors_carry_the_spec_code_and_status(rg: Railgun, fresh_stream: str):
    s = fresh_stream
    rg.create_stream(s, payments_spec(partitioners=["card"], partitions=1))
    rg.add_metrics(s, f"SELECT COUNT(*) AS n FROM {s} GROUP BY card [RANGE 1 HOUR]")

    with pytest.raises(NotFoundError) as e:
        rg.send(unique("missing"), {"id": "e1", "ts": T0})
    assert (e.value.status, e.value.code, e.value.retriable) == (404, "unknown_stream", False)
    with pytest.raises(NotFoundError) as e:
        rg.read(s, "nope", card="c1")
    assert e.value.code == "unknown_metric"

    query = f"SELECT SUM(amount) FROM {s} GROUP BY country [RANGE 1 HOUR]"
    with pytest.raises(BadRequestError) as e:
        rg.add_metrics(s, query)
    assert (e.value.status, e.value.code) == (400, "no_partitioner")
    assert (e.value.line, e.value.column) == (1, query.index("country") + 1)
    with pytest.raises(BadRequestError) as e:
        rg.add_metrics(s, f"SELECT SUMM(amount) FROM {s} GROUP BY card [RANGE 1 HOUR]")
    assert e.value.code == "unknown_function" and e.value.line == 1 and e.value.column is not None
    with pytest.raises(BadRequestError) as e:
        rg.add_metrics(s, f"SELECT COUNT(*) AS n FROM {s} GROUP BY card [RANGE 1 HOUR]")
    assert e.value.code == "duplicate_metric"

    for bad, code in [
        ({"ts": T0, "card": "c1"}, "missing_event_id"),
        ({"id": "e1", "card": "c1"}, "missing_timestamp"),
        ({"id": "e1", "ts": T0, "colour": "red"}, "unknown_field"),
        ({"id": "e1", "ts": T0, "qty": 1.5}, "invalid_value"),
    ]:
        with pytest.raises(BadRequestError) as e:
            rg.send(s, bad)
        assert (e.value.status, e.value.code) == (400, code)
    with pytest.raises(BadRequestError) as e:
        rg.read(s, "n")
    assert e.value.code == "missing_key"
    with pytest.raises(BadRequestError) as e:
        rg.read(s, "n", card="c1", merchant="m1")
    assert e.value.code == "unknown_parameter"

    # more events than --max-batch-events (10,000), each valid: refused before any is counted
    with pytest.raises(PayloadTooLargeError) as e:
        rg.send_batch(s, [{"id": f"big{i}", "ts": T0} for i in range(10_001)])
    assert (e.value.status, e.value.code) == (413, "batch_too_large")


@pytest.mark.skipif(max_body_bytes() is None, reason="PYTEST_RAILGUN_MAX_BODY_BYTES is not set")
def test_a_body_over_the_nodes_limit_is_413(rg: Railgun):
    events = [{"id": "x" * 1000}] * (max_body_bytes() // 1000 + 10)
    with pytest.raises(PayloadTooLargeError) as e:
        rg.send_batch(unique("missing"), events)  # refused before the stream is looked at
    assert (e.value.status, e.value.code) == (413, "body_too_large")
    assert str(max_body_bytes()) in e.value.message


@pytest.mark.skipif(admin_token() is None or ingest_token() is None, reason="the node has no tokens")
def test_tokens(url: str, rg: Railgun):
    with Railgun(url, retry=None) as anonymous:
        assert anonymous.health() is True  # /health needs no token
        with pytest.raises(UnauthorizedError) as e:
            anonymous.streams()
        assert (e.value.status, e.value.code) == (401, "unauthorized")
    with Railgun(url, token="wrong-token", retry=None) as wrong:
        with pytest.raises(UnauthorizedError):
            wrong.node_metrics()
    with Railgun(url, token=ingest_token()) as ingest:
        assert "railgun_" in ingest.node_metrics()
        with pytest.raises(ForbiddenError) as e:
            ingest.streams()
        assert (e.value.status, e.value.code) == (403, "forbidden")


def test_probes_and_the_openapi_description(rg: Railgun):
    # /health/live, /health/ready and /v1/openapi.json came with the operations work: an older node
    # answers 404 not_found, and then there is nothing to test
    try:
        description = rg.openapi()
    except NotFoundError as e:
        assert e.code == "not_found"
        pytest.skip("this node has no /v1/openapi.json, /health/live, /health/ready")
    assert description["openapi"].startswith("3.1")
    assert "/v1/streams/{stream}/events" in description["paths"]
    assert rg.live() is True
    readiness = rg.ready()
    assert readiness.status in ("ready", "not_ready") and readiness.tasks >= 0
    assert readiness.ready == (readiness.status == "ready")
