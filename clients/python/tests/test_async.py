"""The asyncio client against the real node: the same endpoints, awaited, and concurrent sends."""

from __future__ import annotations

import asyncio

import pytest

from railgun import AsyncClient, BadRequestError, ConflictError, NotFoundError, PayloadTooLargeError

from conftest import T0, admin_token, payments_spec, unique


@pytest.mark.asyncio
async def test_every_endpoint_awaited(url: str):
    s = unique("pyasync")
    async with AsyncClient(url, token=admin_token()) as rg:
        assert await rg.health() is True
        assert "# TYPE railgun_tasks gauge" in await rg.node_metrics()
        created = await rg.create_stream(s, payments_spec(partitioners=["card"], partitions=1))
        try:
            assert created.created and created.stream.name == s
            assert (await rg.stream(s)).partitions == 1
            assert s in [x.name for x in await rg.streams()]
            with pytest.raises(ConflictError):
                await rg.create_stream(s, payments_spec(partitioners=["card"], partitions=2))
            names = await rg.add_metrics(
                s, f"SELECT COUNT(*) AS n, SUM(qty) AS total FROM {s} GROUP BY card [RANGE UNBOUNDED]", backfill=True
            )
            assert names == ["n", "total"]
            assert [m.name for m in await rg.metrics(s)] == ["n", "total"]

            # ten events of one card sent at once: one task counts them one after the other, so the
            # counts in the replies are 1..10 in some order, and the sum of qty 1..10 is 55 (one
            # timestamp for all: with lateness 0s, one that arrived after a later one would be dropped)
            events = [{"id": f"a{i}", "ts": T0, "card": "a", "qty": i} for i in range(1, 11)]
            replies = await asyncio.gather(*(rg.send(s, e) for e in events))
            assert sorted(r.metrics["n"] for r in replies) == list(range(1, 11))
            assert all(r.counted for r in replies)
            read = await rg.read(s, "total", card="a")
            assert (read.value, read.stream_time) == (55, T0)

            dup = await rg.send(s, events[0])
            assert dup.duplicate and dup.metrics == {"n": 10, "total": 55}
            batch = await rg.send_batch(s, [{"id": "b1", "ts": T0 + 20, "card": "b", "qty": 5},
                                            {"id": "b2", "ts": T0 + 21, "card": "b", "qty": 7}])
            assert [r.metrics for r in batch] == [{"n": 1, "total": 5}, {"n": 2, "total": 12}]
            streamed = [r async for r in rg.send_many(
                s, ({"id": f"c{i}", "ts": T0 + 30 + i, "card": "c", "qty": 1} for i in range(3)), batch_size=2)]
            assert [r.metrics["n"] for r in streamed] == [1, 2, 3]

            with pytest.raises(BadRequestError) as e:
                await rg.send(s, {"id": "x", "ts": T0, "card": "a", "qty": "many"})
            assert e.value.code == "invalid_value"
            with pytest.raises(PayloadTooLargeError):
                await rg.send_batch(s, [{"id": f"big{i}", "ts": T0} for i in range(10_001)])
            await rg.delete_metric(s, "n")
            assert [m.name for m in await rg.metrics(s)] == ["total"]
        finally:
            await rg.delete_stream(s)
        with pytest.raises(NotFoundError) as e:
            await rg.stream(s)
        assert e.value.code == "unknown_stream"


@pytest.mark.asyncio
async def test_probes_awaited(url: str):
    async with AsyncClient(url, token=admin_token()) as rg:
        try:
            await rg.openapi()
        except NotFoundError:
            pytest.skip("this node has no /v1/openapi.json, /health/live, /health/ready")
        assert await rg.live() is True
        assert (await rg.ready()).tasks >= 0
