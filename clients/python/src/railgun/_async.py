"""The asyncio client: the same calls as :class:`railgun.Railgun`, awaited."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Iterable, List, Mapping, Optional, TypeVar, Union

import httpx

from . import _core
from ._client import DEFAULT_TIMEOUT, DEFAULT_URL
from ._errors import RailgunError
from ._retry import RetryPolicy
from ._types import EventReply, MetricInfo, PointRead, PutStreamReply, Readiness, StreamSpec

T = TypeVar("T")


class AsyncClient:
    """The asyncio twin of :class:`~railgun.Railgun`: same arguments, same methods, each a
    coroutine (``send_many`` an async iterator). Use one per event loop, with ``async with``.

    Example::

        async with AsyncClient("http://127.0.0.1:7070") as rg:
            replies = await asyncio.gather(*(rg.send("payments", e) for e in events))
    """

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        verify: Union[bool, str, Any] = True,
        retry: Optional[RetryPolicy] = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        transport: Optional[httpx.AsyncBaseTransport] = None,
    ) -> None:
        options = _core.client_options(url, token, timeout, verify)
        self.url = options["base_url"]
        self._timeout = timeout
        self._retry = retry or RetryPolicy.none()
        self._sleep = sleep
        self._http = httpx.AsyncClient(transport=transport, **options)

    async def create_stream(self, name: str, spec: StreamSpec) -> PutStreamReply:
        """``PUT /v1/streams/{name}``; see :meth:`railgun.Railgun.create_stream`."""
        return await self._run(_core.put_stream(name, spec))

    async def stream(self, name: str) -> StreamSpec:
        """``GET /v1/streams/{name}``."""
        return await self._run(_core.get_stream(name))

    async def streams(self) -> List[StreamSpec]:
        """``GET /v1/streams``."""
        return await self._run(_core.list_streams())

    async def delete_stream(self, name: str) -> None:
        """``DELETE /v1/streams/{name}``."""
        await self._run(_core.delete_stream(name))

    async def add_metrics(self, stream: str, query: str, *, backfill: Optional[bool] = None) -> List[str]:
        """``POST /v1/streams/{stream}/metrics``; see :meth:`railgun.Railgun.add_metrics`."""
        return await self._run(_core.add_metrics(stream, query, backfill))

    async def metrics(self, stream: str) -> List[MetricInfo]:
        """``GET /v1/streams/{stream}/metrics``."""
        return await self._run(_core.list_metrics(stream))

    async def delete_metric(self, stream: str, name: str) -> None:
        """``DELETE /v1/streams/{stream}/metrics/{name}``."""
        await self._run(_core.delete_metric(stream, name))

    async def send(self, stream: str, event: Mapping[str, Any]) -> EventReply:
        """``POST /v1/streams/{stream}/events``; see :meth:`railgun.Railgun.send`."""
        return await self._run(_core.send(stream, event))

    async def send_batch(self, stream: str, events: Iterable[Mapping[str, Any]]) -> List[EventReply]:
        """``POST /v1/streams/{stream}/events:batch``; see :meth:`railgun.Railgun.send_batch`."""
        return await self._run(_core.send_batch(stream, events))

    async def send_many(
        self, stream: str, events: Iterable[Mapping[str, Any]], *, batch_size: int = 1000
    ) -> AsyncIterator[EventReply]:
        """Sends events in batches of ``batch_size``, yielding their replies in order."""
        for chunk in _core.chunks(events, batch_size):
            for reply in await self.send_batch(stream, chunk):
                yield reply

    async def read(
        self, stream: str, metric: str, key: Optional[Mapping[str, Any]] = None, **fields: Any
    ) -> PointRead:
        """``GET /v1/streams/{stream}/metrics/{metric}?field=value...``; see :meth:`railgun.Railgun.read`."""
        return await self._run(_core.read(stream, metric, {**(key or {}), **fields}))

    async def health(self) -> bool:
        """``GET /health``: True when the node answers 200; False otherwise (no retries)."""
        try:
            return await self._once(_core.health())
        except RailgunError:
            return False

    async def live(self) -> bool:
        """``GET /health/live``: True when the process serves HTTP; False otherwise (no retries)."""
        try:
            return await self._once(_core.live())
        except RailgunError:
            return False

    async def ready(self) -> Readiness:
        """``GET /health/ready``; see :meth:`railgun.Railgun.ready`."""
        return await self._run(_core.ready())

    async def node_metrics(self) -> str:
        """``GET /metrics`` (Prometheus text format)."""
        return await self._run(_core.node_metrics())

    async def openapi(self) -> Dict[str, Any]:
        """``GET /v1/openapi.json``."""
        return await self._run(_core.openapi())

    async def aclose(self) -> None:
        """Closes the kept-alive connections."""
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AsyncClient({self.url!r})"

    async def _run(self, call: "_core.Call[T]") -> T:
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self._once(call)
            except RailgunError as e:
                if not self._retry.should_retry(e, attempt, call.idempotent):
                    e.attempts = attempt
                    raise
                await self._sleep(self._retry.delay(attempt, e.retry_after))

    async def _once(self, call: "_core.Call[T]") -> T:
        headers = {"Content-Type": _core.JSON} if call.body is not None else None
        try:
            response = await self._http.request(call.method, call.path, content=call.body, headers=headers)
        except httpx.TransportError as e:
            raise _core.transport_error(call, e, self._timeout) from e
        return _core.answer(call, response)
