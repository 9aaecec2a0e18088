"""Python client of Railgun's HTTP API (SPEC §3): streams, metrics, events, batches, point reads.

Sync::

    from railgun import Railgun
    with Railgun("http://127.0.0.1:7070") as rg:
        rg.send("payments", {"id": "e1", "ts": 1700000000000, "card": "c1", "amount": 12.5})

Asyncio: :class:`AsyncClient`, the same methods awaited. Failures raise :class:`RailgunError`
subclasses carrying the node's ``code``, the HTTP ``status`` and ``message``.
"""

from ._async import AsyncClient
from ._client import DEFAULT_TIMEOUT, DEFAULT_URL, Client, Railgun
from ._core import CONNECTION_LOST
from ._errors import (
    BAD_RESPONSE,
    TIMEOUT,
    UNREACHABLE,
    BadRequestError,
    BadResponseError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    RailgunError,
    ServerError,
    TransportError,
    UnauthorizedError,
    UnavailableError,
)
from ._retry import RetryPolicy
from ._types import (
    EventReply,
    FieldType,
    LateEvents,
    MetricInfo,
    MetricValue,
    PointRead,
    PutStreamReply,
    Readiness,
    StreamSpec,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncClient",
    "BAD_RESPONSE",
    "BadRequestError",
    "BadResponseError",
    "CONNECTION_LOST",
    "Client",
    "ConflictError",
    "DEFAULT_TIMEOUT",
    "DEFAULT_URL",
    "EventReply",
    "FieldType",
    "ForbiddenError",
    "LateEvents",
    "MetricInfo",
    "MetricValue",
    "NotFoundError",
    "PayloadTooLargeError",
    "PointRead",
    "PutStreamReply",
    "Railgun",
    "RailgunError",
    "Readiness",
    "RetryPolicy",
    "ServerError",
    "StreamSpec",
    "TIMEOUT",
    "TransportError",
    "UNREACHABLE",
    "UnauthorizedError",
    "UnavailableError",
]
