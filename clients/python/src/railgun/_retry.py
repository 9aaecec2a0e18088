"""When and how long the client waits before sending a failed request again."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Optional

from ._errors import UNREACHABLE, RailgunError, TransportError


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter, honouring ``Retry-After``.

    A failed request is sent again, with the same body (so an event keeps its id), when its error
    is :attr:`~railgun.RailgunError.retriable` (no answer, 429, 502, 503, 504) and repeating it is
    safe: reads, ``PUT`` of a stream definition and event sends always are (the node counts an
    event id once and answers a repeat with ``"duplicate": true`` and the current values). Adding
    metrics and deleting are sent again only when the request never reached the node (no
    connection): after a 503 the change may have been made, so read the stream or its metrics first.

    The wait before retry ``n`` (1, 2, ...) is ``b/2 + random()*b/2`` with ``b = min(max_backoff,
    initial_backoff * 2**(n-1))``, and at least the answer's ``Retry-After`` (capped at
    ``max_retry_after``).

    Attributes:
        max_attempts: how many times a request is sent at most (1: no retries).
        initial_backoff: seconds, before jitter, of the first wait.
        max_backoff: seconds, the largest wait before jitter (Retry-After may ask for more).
        max_retry_after: seconds, the most a ``Retry-After`` header is honoured for.
        random: a source of floats in [0, 1) for the jitter; tests give a fixed one.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.1
    max_backoff: float = 5.0
    max_retry_after: float = 30.0
    random: Callable[[], float] = field(default=random.random, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, not {self.max_attempts}")
        if not 0 <= self.initial_backoff <= self.max_backoff:
            raise ValueError(
                f"need 0 <= initial_backoff <= max_backoff, not {self.initial_backoff} and {self.max_backoff}"
            )
        if self.max_retry_after < 0:
            raise ValueError(f"max_retry_after must not be negative, not {self.max_retry_after}")

    @classmethod
    def none(cls) -> "RetryPolicy":
        """Every request is sent once."""
        return cls(max_attempts=1)

    @classmethod
    def exponential(cls, max_attempts: int, initial_backoff: float, max_backoff: float) -> "RetryPolicy":
        """Up to ``max_attempts`` sends, waiting from ``initial_backoff`` doubling to ``max_backoff`` seconds."""
        return cls(max_attempts=max_attempts, initial_backoff=initial_backoff, max_backoff=max_backoff)

    def delay(self, retry: int, retry_after: Optional[float] = None) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first) after an answer with
        ``retry_after`` seconds (None when it had none)."""
        backoff = min(self.max_backoff, self.initial_backoff * 2.0 ** (retry - 1))
        wait = backoff / 2 + self.random() * backoff / 2
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after))
        return wait

    def should_retry(self, error: RailgunError, attempt: int, idempotent: bool) -> bool:
        """True when a request that failed with ``error`` on send number ``attempt`` goes again."""
        if attempt >= self.max_attempts or not error.retriable:
            return False
        never_sent = isinstance(error, TransportError) and error.code == UNREACHABLE
        return idempotent or never_sent
