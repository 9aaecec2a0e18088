"""The synchronous client."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, TypeVar, Union

import httpx

from . import _core
from ._errors import RailgunError
from ._retry import RetryPolicy
from ._types import EventReply, MetricInfo, PointRead, PutStreamReply, Readiness, StreamSpec

T = TypeVar("T")

#: Where ``./railgun start`` listens.
DEFAULT_URL = "http://127.0.0.1:7070"
#: Seconds a request waits for its answer (the node itself answers 503 after its ``--request-timeout``, 10 s).
DEFAULT_TIMEOUT = 30.0


class Railgun:
    """The typed client of Railgun's HTTP API (SPEC §3), one method per endpoint.

    Thread-safe: one client is meant to be shared, it keeps its connections alive. Close it (or use
    ``with``) when done. Every failure raises a :class:`~railgun.RailgunError` subclass; expected
    outcomes of an event (a duplicate, dropped as late) are fields of its
    :class:`~railgun.EventReply`.

    Args:
        url: the node, e.g. ``http://127.0.0.1:7070`` or ``https://node1:7443``.
        token: sent as ``Authorization: Bearer <token>`` (the node's ingest or admin token).
        timeout: seconds to wait for each answer (also to connect).
        verify: TLS: True checks the node's certificate against the system's trust store, a path
            names a CA bundle (PEM, e.g. the node's self-signed certificate), an
            :class:`ssl.SSLContext` is used as it is, and False checks nothing (tests only).
        retry: how failed requests are sent again (see :class:`~railgun.RetryPolicy`); the default
            makes up to 5 attempts. ``RetryPolicy.none()`` or None sends each request once.
        sleep: how the client waits between attempts (tests pass a recorder).
        transport: an httpx transport, for tests (e.g. ``httpx.MockTransport``).

    Example::

        with Railgun("http://127.0.0.1:7070") as rg:
            reply = rg.send("payments", {"id": "e1", "ts": 1700000000000, "card": "c1", "amount": 12.5})
            reply.metrics["card_sum_5m"]
    """

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        verify: Union[bool, str, Any] = True,
        retry: Optional[RetryPolicy] = RetryPolicy(),
        sleep: Callable[[float], None] = time.sleep,
        transport: Optional[httpx.BaseTransport] = None,
    ) -> None:
        options = _core.client_options(url, token, timeout, verify)
        self.url = options["base_url"]
        self._timeout = timeout
        self._retry = retry or RetryPolicy.none()
        self._sleep = sleep
        self._http = httpx.Client(transport=transport, **options)

    # --- streams (SPEC §3.1) -----------------------------------------------------------------

    def create_stream(self, name: str, spec: StreamSpec) -> PutStreamReply:
        """``PUT /v1/streams/{name}``: creates the stream (``created`` True), or leaves it as it is
        / adds the new fields appended to ``spec.fields`` (``created`` False).

        Raises:
            ConflictError: 409 ``incompatible_schema_change`` or ``incompatible_stream_change``.
            BadRequestError: 400 for an invalid definition or name.
        """
        return self._run(_core.put_stream(name, spec))

    def stream(self, name: str) -> StreamSpec:
        """``GET /v1/streams/{name}``: the definition. Raises NotFoundError (``unknown_stream``)."""
        return self._run(_core.get_stream(name))

    def streams(self) -> List[StreamSpec]:
        """``GET /v1/streams``: every stream's definition."""
        return self._run(_core.list_streams())

    def delete_stream(self, name: str) -> None:
        """``DELETE /v1/streams/{name}``: the stream, its metrics, topics and data. Raises NotFoundError."""
        self._run(_core.delete_stream(name))

    # --- metrics (SPEC §3.2) -----------------------------------------------------------------

    def add_metrics(self, stream: str, query: str, *, backfill: Optional[bool] = None) -> List[str]:
        """``POST /v1/streams/{stream}/metrics``: defines the statement's metrics, returns their names.

        With ``backfill=True`` they are first computed from the events the stream still stores.
        Not retried after an answer (the change may have been made): after a 503, list the metrics.

        Raises:
            BadRequestError: 400 ``syntax_error``, ``unknown_field``, ``no_partitioner``,
                ``duplicate_metric``...; :attr:`~BadRequestError.line` and ``column`` give the position.
        """
        return self._run(_core.add_metrics(stream, query, backfill))

    def metrics(self, stream: str) -> List[MetricInfo]:
        """``GET /v1/streams/{stream}/metrics``: the metrics in creation order, with their statements."""
        return self._run(_core.list_metrics(stream))

    def delete_metric(self, stream: str, name: str) -> None:
        """``DELETE /v1/streams/{stream}/metrics/{name}``. Raises NotFoundError (``unknown_metric``)."""
        self._run(_core.delete_metric(stream, name))

    # --- events (SPEC §3.3) ------------------------------------------------------------------

    def send(self, stream: str, event: Mapping[str, Any]) -> EventReply:
        """``POST /v1/streams/{stream}/events``: counts one event and returns every metric of the
        stream for its keys, evaluated after it is counted.

        Values: str, int, float, bool, None, or an aware datetime (sent as ISO-8601); NaN and
        numpy scalars (pandas rows) are sent as null and plain numbers. Retried with the same
        body, so the same event id: a retry of an event that had been counted answers
        ``duplicate=True`` with the current values.
        """
        return self._run(_core.send(stream, event))

    def send_batch(self, stream: str, events: Iterable[Mapping[str, Any]]) -> List[EventReply]:
        """``POST /v1/streams/{stream}/events:batch``: one reply per event, in order. The batch is
        checked whole first (one bad event refuses it, the message names its index); at most the
        node's ``--max-batch-events`` (10,000) events, else PayloadTooLargeError."""
        return self._run(_core.send_batch(stream, events))

    def send_many(
        self, stream: str, events: Iterable[Mapping[str, Any]], *, batch_size: int = 1000
    ) -> Iterator[EventReply]:
        """Sends any number of events in batches of ``batch_size``, yielding their replies in order
        (e.g. to replay a CSV file or a DataFrame's rows)."""
        for chunk in _core.chunks(events, batch_size):
            yield from self.send_batch(stream, chunk)

    # --- point reads (SPEC §3.4) -------------------------------------------------------------

    def read(self, stream: str, metric: str, key: Optional[Mapping[str, Any]] = None, **fields: Any) -> PointRead:
        """``GET /v1/streams/{stream}/metrics/{metric}?field=value...``: the metric's current value
        for one key, without sending an event: ``rg.read("payments", "card_sum_5m", card="c1")``.

        One value per GROUP BY field (``key`` and/or keyword arguments; a field named ``stream``,
        ``metric`` or ``key`` goes in ``key``); None is SQL NULL.

        Raises:
            NotFoundError: ``unknown_stream``, ``unknown_metric``.
            BadRequestError: ``missing_key``, ``unknown_parameter``, ``invalid_value``.
            ConflictError: ``backfilling`` while the metric is being backfilled.
        """
        return self._run(_core.read(stream, metric, {**(key or {}), **fields}))

    # --- operations (SPEC §3.5) --------------------------------------------------------------

    def health(self) -> bool:
        """``GET /health``: True when the node answers 200; False for any other answer or none (no retries)."""
        try:
            return self._once(_core.health())
        except RailgunError:
            return False

    def live(self) -> bool:
        """``GET /health/live``: True when the process serves HTTP; False otherwise (no retries)."""
        try:
            return self._once(_core.live())
        except RailgunError:
            return False

    def ready(self) -> Readiness:
        """``GET /health/ready``: whether the node serves every task it owns, caught up, and if not,
        why. A 503 "not ready" is this answer, not an error (and not retried)."""
        return self._run(_core.ready())

    def node_metrics(self) -> str:
        """``GET /metrics``: the node's own metrics in Prometheus text format."""
        return self._run(_core.node_metrics())

    def openapi(self) -> Dict[str, Any]:
        """``GET /v1/openapi.json``: the OpenAPI 3.1 description of the node's API."""
        return self._run(_core.openapi())

    # --- plumbing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the kept-alive connections."""
        self._http.close()

    def __enter__(self) -> "Railgun":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Railgun({self.url!r})"

    def _run(self, call: "_core.Call[T]") -> T:
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._once(call)
            except RailgunError as e:
                if not self._retry.should_retry(e, attempt, call.idempotent):
                    e.attempts = attempt
                    raise
                self._sleep(self._retry.delay(attempt, e.retry_after))

    def _once(self, call: "_core.Call[T]") -> T:
        headers = {"Content-Type": _core.JSON} if call.body is not None else None
        try:
            response = self._http.request(call.method, call.path, content=call.body, headers=headers)
        except httpx.TransportError as e:
            raise _core.transport_error(call, e, self._timeout) from e
        return _core.answer(call, response)


#: Another name of :class:`Railgun`.
Client = Railgun
