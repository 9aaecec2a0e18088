"""The values the client sends and receives, as dataclasses (SPEC §3 shapes, snake_case names)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Union

#: A metric value: int (JSON integer: COUNT, SUM of longs, MIN/MAX/LAST of long or timestamp
#: fields), float (AVG, STDDEV, SUM of doubles...), str, bool, or None (SQL NULL, e.g. SUM of nothing).
MetricValue = Union[int, float, str, bool, None]


class FieldType(str, enum.Enum):
    """A field's type in a stream definition; plain strings (``"double"``) are accepted too."""

    STRING = "string"
    LONG = "long"
    DOUBLE = "double"
    BOOLEAN = "boolean"
    TIMESTAMP = "timestamp"

    def __str__(self) -> str:
        return self.value


class LateEvents(str, enum.Enum):
    """What happens to an event later than the stream's lateness."""

    DROP = "drop"
    REWRITE = "rewrite"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class StreamSpec:
    """A stream's definition: the body of ``PUT /v1/streams/{stream}`` and of its ``GET`` (SPEC §3.1).

    Attributes:
        fields: field name -> type (``"string"``, ``"long"``, ``"double"``, ``"boolean"``,
            ``"timestamp"`` or a :class:`FieldType`), in declaration order. Every field is nullable.
        event_id: the field identifying an event; duplicates are detected by it.
        partitioners: the top-level GROUP BY fields events are routed by (a Kafka topic each).
        timestamp: the event-time field, or None for the node's ingestion time.
        partitions: partitions per partitioner topic (tasks per partitioner); None: the node's default (1).
        lateness: e.g. ``"5s"``; None: the node's default (``"0s"``).
        late_events: ``"drop"`` or ``"rewrite"``; None: the node's default (drop).
        retention: history kept for backfilling metrics added later, e.g. ``"30d"``; None: ``"0s"``.
        input_retention: how long Kafka keeps the stream's input events, e.g. ``"30d"`` or
            ``"forever"`` (at least ``"1m"``); None: the node's ``--input-retention`` (7 days).
        name: the stream's name as the node answers it (None in a spec you build).
    """

    fields: Mapping[str, Union[str, FieldType]]
    event_id: str
    partitioners: List[str]
    timestamp: Optional[str] = None
    partitions: Optional[int] = None
    lateness: Optional[str] = None
    late_events: Optional[Union[str, LateEvents]] = None
    retention: Optional[str] = None
    input_retention: Optional[str] = None
    name: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        """The PUT body; unset optional attributes are left out so that the node applies its defaults."""
        body: Dict[str, Any] = {
            "fields": {k: str(v) for k, v in self.fields.items()},
            "eventId": self.event_id,
        }
        if self.timestamp is not None:
            body["timestamp"] = self.timestamp
        body["partitioners"] = list(self.partitioners)
        for key, value in (
            ("partitions", self.partitions),
            ("lateness", self.lateness),
            ("lateEvents", None if self.late_events is None else str(self.late_events)),
            ("retention", self.retention),
            ("inputRetention", self.input_retention),
        ):
            if value is not None:
                body[key] = value
        return body

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> "StreamSpec":
        return cls(
            fields=dict(body["fields"]),
            event_id=body["eventId"],
            partitioners=list(body["partitioners"]),
            timestamp=body.get("timestamp"),
            partitions=body.get("partitions"),
            lateness=body.get("lateness"),
            late_events=body.get("lateEvents"),
            retention=body.get("retention"),
            input_retention=body.get("inputRetention"),
            name=body.get("name"),
        )


@dataclass(frozen=True)
class PutStreamReply:
    """The answer to ``PUT /v1/streams/{stream}``.

    Attributes:
        created: True for 201 (a new stream), False for 200 (unchanged, or new fields added).
        stream: the definition as the node now holds it, every attribute filled in.
    """

    created: bool
    stream: StreamSpec


@dataclass(frozen=True)
class MetricInfo:
    """One metric of ``GET /v1/streams/{stream}/metrics``.

    Attributes:
        name: unique in its stream (ignoring case).
        statement: the statement that defined it and its sibling metrics.
        partitioner: the partitioner whose tasks compute it.
        group_by: its GROUP BY fields, in order: the keys of a point read.
    """

    name: str
    statement: str
    partitioner: Optional[str] = None
    group_by: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class EventReply:
    """The node's reply to one event (SPEC §3.3).

    Attributes:
        event_id: the event's id, in its field's type (int for a ``long`` id).
        metrics: every metric of the stream for this event's GROUP BY values, evaluated after the
            event is counted, in creation order.
        duplicate: the id had already been counted: not counted again, the values are the current
            ones. A retried send that had reached the node answers this way.
        dropped: ``"late"`` when the event was later than the stream's lateness and dropped (the
            values are the current ones, without it); else None.
    """

    event_id: Any
    metrics: Dict[str, MetricValue]
    duplicate: bool = False
    dropped: Optional[str] = None

    @property
    def counted(self) -> bool:
        """True when this request counted the event (neither a duplicate nor dropped)."""
        return not self.duplicate and self.dropped is None

    def __getitem__(self, metric: str) -> MetricValue:
        return self.metrics[metric]

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> "EventReply":
        metrics = body["metrics"]
        if not isinstance(metrics, dict):
            raise ValueError("'metrics' is not an object")
        return cls(
            event_id=body.get("eventId"),
            metrics=metrics,
            duplicate=body.get("duplicate") is True,
            dropped=body.get("dropped"),
        )


@dataclass(frozen=True)
class Readiness:
    """The answer of ``GET /health/ready``: 200 when the node serves every task it owns, caught up;
    503 before (an answer here, not an error).

    Attributes:
        ready: True for ``"status": "ready"``.
        status: ``"ready"`` or ``"not_ready"``.
        tasks: the number of tasks the node runs.
        reasons: what is not ready yet (at most 20 lines), empty when ready.
    """

    ready: bool
    status: str
    tasks: int
    reasons: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> "Readiness":
        status = body["status"]
        if not isinstance(status, str):
            raise ValueError("'status' is not a string")
        return cls(status == "ready", status, int(body["tasks"]), [str(r) for r in body.get("reasons") or []])


@dataclass(frozen=True)
class PointRead:
    """A metric's current value for one key, without sending an event (SPEC §3.4).

    Attributes:
        metric: the metric's name as listed.
        key: the GROUP BY fields and their typed values, in GROUP BY order.
        value: the value at ``stream_time``: 0 for COUNT of a key never seen, None for the others.
        stream_time: epoch milliseconds of the partition's stream time at which ``value`` was
            evaluated, or None before that partition counted any event.
    """

    metric: str
    key: Dict[str, Any]
    value: MetricValue
    stream_time: Optional[int]

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> "PointRead":
        return cls(
            metric=body["metric"],
            key=dict(body["key"]),
            value=body.get("value"),
            stream_time=body.get("streamTime"),
        )
