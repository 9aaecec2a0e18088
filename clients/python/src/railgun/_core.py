"""What the sync and asyncio clients share: each endpoint as a :class:`Call` (method, path, body,
whether repeating it is safe, how to read its answer), value encoding, and answer decoding.
Neither does any I/O here, so both clients behave the same."""

from __future__ import annotations

import datetime as _dt
import enum
import json
import math
import os
import ssl
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Generic, Iterable, List, Mapping, Optional, TypeVar, Union
from urllib.parse import quote

import httpx

from ._errors import (
    BAD_RESPONSE,
    TIMEOUT,
    UNREACHABLE,
    BadResponseError,
    RailgunError,
    TransportError,
    error_for_status,
)
from ._types import EventReply, MetricInfo, PointRead, PutStreamReply, Readiness, StreamSpec

#: Code of a request whose connection broke after it was (at least partly) sent: it may have been applied.
CONNECTION_LOST = "connection_lost"

T = TypeVar("T")
JSON = "application/json"


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request to send (maybe more than once) and how to read its 2xx answer."""

    method: str
    path: str  # percent-encoded, with its query string
    body: Optional[bytes]
    idempotent: bool
    decode: Callable[[httpx.Response], T]
    # statuses other than 2xx whose body is an answer, not an error (/health/ready's 503)
    answers: FrozenSet[int] = frozenset()

    def describe(self) -> str:
        return f"{self.method} {self.path}"


# --- encoding ------------------------------------------------------------------------------------


def segment(name: str) -> str:
    """A path segment: every character but unreserved ones percent-encoded (UTF-8)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a stream or metric name must be a non-empty string, not {name!r}")
    return quote(name, safe="")


def _event_value(key: str, value: Any) -> Any:
    """A JSON value for an event field; SPEC §3.3's types, and what pandas / numpy rows hold."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return None  # a missing value in pandas: SQL NULL
        if math.isinf(value):
            raise ValueError(f"{key}: {value} has no JSON form; a double field holds finite numbers")
        return value
    if isinstance(value, _dt.datetime):
        if value != value:  # pandas.NaT
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(
                f"{key}: the datetime {value} has no time zone; give an aware one "
                "(e.g. tzinfo=datetime.timezone.utc) or epoch milliseconds"
            )
        return value.isoformat(timespec="milliseconds")
    if isinstance(value, enum.Enum):
        return _event_value(key, value.value)
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        return _event_value(key, item())
    raise TypeError(
        f"{key}: cannot send a {type(value).__name__} as an event value; "
        "use str, int, float, bool, None or an aware datetime"
    )


def event_object(event: Mapping[str, Any]) -> Dict[str, Any]:
    if not isinstance(event, Mapping):
        raise TypeError(f"an event is a mapping of field name to value, not a {type(event).__name__}")
    return {str(k): _event_value(str(k), v) for k, v in event.items()}


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def _key_text(name: str, value: Any) -> Optional[str]:
    """A point-read parameter's text (None: SQL NULL, written without '=')."""
    value = _event_value(name, value)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return str(value)


def query_string(key: Mapping[str, Any]) -> str:
    parts = []
    for name, value in key.items():
        text = _key_text(str(name), value)
        encoded = quote(str(name), safe="")
        parts.append(encoded if text is None else f"{encoded}={quote(text, safe='')}")
    return "?" + "&".join(parts) if parts else ""


# --- decoding ------------------------------------------------------------------------------------


def _json(response: httpx.Response) -> Any:
    try:
        return json.loads(response.content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BadResponseError(
            response.status_code, BAD_RESPONSE, f"the node's answer is not JSON ({e}): {_excerpt(response)}"
        ) from None


def _shape(response: httpx.Response, read: Callable[[Any], T]) -> T:
    body = _json(response)
    try:
        return read(body)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BadResponseError(
            response.status_code,
            BAD_RESPONSE,
            f"the node's answer is not the JSON SPEC §3 describes ({type(e).__name__}: {e}): {_excerpt(response)}",
        ) from None


def _excerpt(response: httpx.Response, limit: int = 300) -> str:
    text = response.content.decode("utf-8", errors="replace").strip()
    return text if len(text) <= limit else text[:limit] + "..."


def _retry_after(response: httpx.Response) -> Optional[float]:
    """Retry-After in delay-seconds (what the node sends); None when absent or an HTTP date."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        return None


def answer(call: Call[T], response: httpx.Response) -> T:
    """The decoded 2xx answer, or the :class:`RailgunError` for any other status."""
    if 200 <= response.status_code < 300:
        return call.decode(response)
    if response.status_code in call.answers:
        try:
            return call.decode(response)
        except BadResponseError:
            pass  # the error object (e.g. 503 "stopping" while the node stops)
    raise refusal(response)


def refusal(response: httpx.Response) -> RailgunError:
    status = response.status_code
    code, message = f"http_{status}", _excerpt(response) or f"HTTP {status} with no body"
    try:
        error = json.loads(response.content.decode("utf-8"))["error"]
        if isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
            code, message = error["code"], error["message"]
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        pass
    return error_for_status(status, code, message, _retry_after(response))


def transport_error(call: Call[Any], e: httpx.TransportError, timeout: Optional[float]) -> TransportError:
    what = call.describe()
    if isinstance(e, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)):
        return TransportError(
            0,
            UNREACHABLE,
            f"cannot reach the Railgun node for {what}: {e!r}; check that it runs (./railgun start) "
            "and that the URL and TLS settings are right",
        )
    if isinstance(e, httpx.TimeoutException):
        return TransportError(
            0,
            TIMEOUT,
            f"no answer to {what} within {timeout} s; it may or may not have been applied "
            "(resending an event is safe: its id is deduplicated)",
        )
    return TransportError(
        0,
        CONNECTION_LOST,
        f"the connection broke during {what}: {e!r}; it may or may not have been applied",
    )


# --- the endpoints -------------------------------------------------------------------------------


def put_stream(name: str, spec: StreamSpec) -> Call[PutStreamReply]:
    def read(response: httpx.Response) -> PutStreamReply:
        return PutStreamReply(response.status_code == 201, _shape(response, StreamSpec.from_json))

    return Call("PUT", f"/v1/streams/{segment(name)}", dumps(spec.to_json()), True, read)


def get_stream(name: str) -> Call[StreamSpec]:
    return Call("GET", f"/v1/streams/{segment(name)}", None, True, lambda r: _shape(r, StreamSpec.from_json))


def list_streams() -> Call[List[StreamSpec]]:
    return Call(
        "GET", "/v1/streams", None, True, lambda r: _shape(r, lambda b: [StreamSpec.from_json(s) for s in b["streams"]])
    )


def delete_stream(name: str) -> Call[None]:
    return Call("DELETE", f"/v1/streams/{segment(name)}", None, False, lambda r: None)


def add_metrics(stream: str, query: str, backfill: Optional[bool]) -> Call[List[str]]:
    body: Dict[str, Any] = {"query": query}
    if backfill is not None:
        body["backfill"] = bool(backfill)
    return Call(
        "POST",
        f"/v1/streams/{segment(stream)}/metrics",
        dumps(body),
        False,
        lambda r: _shape(r, lambda b: [str(n) for n in b["metrics"]]),
    )


def _metric_info(m: Mapping[str, Any]) -> MetricInfo:
    return MetricInfo(m["name"], m["statement"], m.get("partitioner"), list(m.get("groupBy") or []))


def list_metrics(stream: str) -> Call[List[MetricInfo]]:
    return Call(
        "GET",
        f"/v1/streams/{segment(stream)}/metrics",
        None,
        True,
        lambda r: _shape(r, lambda b: [_metric_info(m) for m in b["metrics"]]),
    )


def delete_metric(stream: str, name: str) -> Call[None]:
    return Call("DELETE", f"/v1/streams/{segment(stream)}/metrics/{segment(name)}", None, False, lambda r: None)


def send(stream: str, event: Mapping[str, Any]) -> Call[EventReply]:
    return Call(
        "POST",
        f"/v1/streams/{segment(stream)}/events",
        dumps(event_object(event)),
        True,
        lambda r: _shape(r, EventReply.from_json),
    )


def send_batch(stream: str, events: Iterable[Mapping[str, Any]]) -> Call[List[EventReply]]:
    body = [event_object(e) for e in events]

    def read(response: httpx.Response) -> List[EventReply]:
        replies = _shape(response, lambda b: [EventReply.from_json(r) for r in b])
        if len(replies) != len(body):
            raise BadResponseError(
                response.status_code, BAD_RESPONSE, f"{len(body)} events sent, {len(replies)} replies received"
            )
        return replies

    return Call("POST", f"/v1/streams/{segment(stream)}/events:batch", dumps(body), True, read)


def read(stream: str, metric: str, key: Mapping[str, Any]) -> Call[PointRead]:
    return Call(
        "GET",
        f"/v1/streams/{segment(stream)}/metrics/{segment(metric)}{query_string(key)}",
        None,
        True,
        lambda r: _shape(r, PointRead.from_json),
    )


def node_metrics() -> Call[str]:
    return Call("GET", "/metrics", None, True, lambda r: r.text)


def health() -> Call[bool]:
    return Call("GET", "/health", None, True, lambda r: True)


def live() -> Call[bool]:
    return Call("GET", "/health/live", None, True, lambda r: True)


def ready() -> Call[Readiness]:
    return Call("GET", "/health/ready", None, True, lambda r: _shape(r, Readiness.from_json), frozenset({503}))


def openapi() -> Call[Dict[str, Any]]:
    def read(response: httpx.Response) -> Dict[str, Any]:
        body = _json(response)
        if not isinstance(body, dict):
            raise BadResponseError(response.status_code, BAD_RESPONSE, "the OpenAPI description is not a JSON object")
        return body

    return Call("GET", "/v1/openapi.json", None, True, read)


def chunks(events: Iterable[Mapping[str, Any]], size: int) -> Iterable[List[Mapping[str, Any]]]:
    if size < 1:
        raise ValueError(f"batch_size must be at least 1, not {size}")
    chunk: List[Mapping[str, Any]] = []
    for event in events:
        chunk.append(event)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def client_options(
    base_url: str,
    token: Optional[str],
    timeout: float,
    verify: Union[bool, str, Any],
) -> Dict[str, Any]:
    """The keyword arguments of httpx.Client / httpx.AsyncClient for these settings."""
    if token is not None and (not token or any(c <= " " or c > "~" for c in token)):
        raise ValueError("a bearer token must be non-empty printable ASCII without spaces")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    headers = {"Accept": JSON}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if isinstance(verify, (str, os.PathLike)):
        verify = ssl.create_default_context(cafile=os.fspath(verify))
    return {
        "base_url": base_url.rstrip("/"),
        "headers": headers,
        "timeout": timeout,
        "verify": verify,
        "follow_redirects": False,
    }
