"""Errors of the Railgun client: one exception per kind of refusal, each carrying SPEC §3's code.

The node answers every refusal with ``{"error": {"code": "<machine_code>", "message": "..."}}`` and
a 4xx or 5xx status. The client raises the subclass of :class:`RailgunError` that matches the
status, with the node's ``code`` (stable, for programs) and ``message`` (for people). When there is
no answer at all, :class:`TransportError` has status 0 and one of the client's own codes.
"""

from __future__ import annotations

import re
from typing import Optional

#: Code of a request that could not reach the node (refused, reset, TLS failure, connect timeout).
UNREACHABLE = "unreachable"
#: Code of a request sent but not answered within the client's timeout (it may have been applied).
TIMEOUT = "timeout"
#: Code of a 2xx answer whose body is not the JSON SPEC §3 describes.
BAD_RESPONSE = "bad_response"

_POSITION = re.compile(r"line (\d+), column (\d+)")


class RailgunError(Exception):
    """A request that did not succeed.

    Attributes:
        status: the HTTP status, or 0 when the node did not answer.
        code: the node's ``error.code`` (e.g. ``unknown_stream``), ``http_<status>`` for an answer
            whose body is not SPEC §3's error object (e.g. from a proxy), or one of the client's
            codes :data:`UNREACHABLE`, :data:`TIMEOUT`, :data:`BAD_RESPONSE`.
        message: what is wrong and how to fix it.
        retry_after: the ``Retry-After`` header in seconds (every 503 of the node has one), else None.
        attempts: how many times the request was sent before giving up (1 without retries).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        retry_after: Optional[float] = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.attempts = attempts

    @property
    def retriable(self) -> bool:
        """True when sending the same request again may succeed.

        No answer (:class:`TransportError`), 429, 502, 503 and 504. Resending an event is safe: the
        node counts an event id once and answers a duplicate with the current values.
        """
        return self.status in (0, 429, 502, 503, 504)

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status else "no answer"
        return f"{self.code} ({where}): {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r})"


class BadRequestError(RailgunError):
    """400: the request is wrong (bad definition, query, event or point-read key).

    For a refused statement (``syntax_error``, ``unknown_field``, ``no_partitioner``...) the message
    gives the position, also in :attr:`line` and :attr:`column` (1-based; None when absent).
    """

    @property
    def line(self) -> Optional[int]:
        m = _POSITION.search(self.message)
        return int(m.group(1)) if m else None

    @property
    def column(self) -> Optional[int]:
        m = _POSITION.search(self.message)
        return int(m.group(2)) if m else None


class UnauthorizedError(RailgunError):
    """401 ``unauthorized``: tokens are configured and this request has none, or a wrong one."""


class ForbiddenError(RailgunError):
    """403 ``forbidden``: the ingest token on an admin endpoint (streams, metrics)."""


class NotFoundError(RailgunError):
    """404: ``unknown_stream``, ``unknown_metric``, or ``not_found`` (no such endpoint)."""


class ConflictError(RailgunError):
    """409: ``incompatible_schema_change``, ``incompatible_stream_change``, or ``backfilling``.

    ``backfilling`` (a point read of a metric still being backfilled) succeeds later; the client
    does not wait for it by itself.
    """


class PayloadTooLargeError(RailgunError):
    """413: ``body_too_large`` (the node's ``--max-body-bytes``) or ``batch_too_large``
    (``--max-batch-events``); split the batch."""


class ServerError(RailgunError):
    """500: ``internal`` or ``task_failed``, a bug the node logged (the message gives its incident id)."""


class UnavailableError(RailgunError):
    """503 (also 429, 502, 504): the node could not answer in time (``timeout``,
    ``kafka_unavailable``, ``unavailable``...). Retriable; :attr:`retry_after` says when."""


class TransportError(RailgunError):
    """No answer (status 0): :data:`UNREACHABLE` (no connection) or :data:`TIMEOUT` (sent, no
    answer in time; the request may have been applied). Retriable."""


class BadResponseError(RailgunError):
    """A 2xx answer whose body is not the JSON SPEC §3 describes (a proxy, or another server)."""

    @property
    def retriable(self) -> bool:
        return False


_BY_STATUS = {
    400: BadRequestError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    429: UnavailableError,
    500: ServerError,
    502: UnavailableError,
    503: UnavailableError,
    504: UnavailableError,
}


def error_for_status(status: int, code: str, message: str, retry_after: Optional[float] = None) -> RailgunError:
    """The exception for a non-2xx answer: the subclass for ``status``, else :class:`RailgunError`."""
    cls = _BY_STATUS.get(status, RailgunError)
    return cls(status, code, message, retry_after=retry_after)
