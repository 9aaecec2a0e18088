"""Fixtures: a client of the real node named by PYTEST_RAILGUN_URL (./verify starts one), and
fresh streams with unique names so that tests do not see each other's events.

Environment (not RAILGUN_*: the node refuses RAILGUN_* variables it does not know):
    PYTEST_RAILGUN_URL            the node, e.g. http://127.0.0.1:17170; without it the tests
                                  that need a node are skipped
    PYTEST_RAILGUN_ADMIN_TOKEN    the node's --admin-token, when it has one
    PYTEST_RAILGUN_INGEST_TOKEN   the node's --ingest-token, when it has one
    PYTEST_RAILGUN_MAX_BODY_BYTES the node's --max-body-bytes, to provoke a 413 body_too_large
                                  cheaply (the test is skipped without it)
"""

from __future__ import annotations

import os
import uuid
from typing import Iterator, Optional

import pytest

from railgun import NotFoundError, Railgun, StreamSpec

#: 2023-11-14T22:13:20Z, the events' first timestamp in the docs' examples.
T0 = 1_700_000_000_000


def node_url() -> Optional[str]:
    return os.environ.get("PYTEST_RAILGUN_URL") or None


def admin_token() -> Optional[str]:
    return os.environ.get("PYTEST_RAILGUN_ADMIN_TOKEN") or None


def ingest_token() -> Optional[str]:
    return os.environ.get("PYTEST_RAILGUN_INGEST_TOKEN") or None


def max_body_bytes() -> Optional[int]:
    value = os.environ.get("PYTEST_RAILGUN_MAX_BODY_BYTES")
    return int(value) if value else None


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def url() -> str:
    value = node_url()
    if value is None:
        pytest.skip("no node: set PYTEST_RAILGUN_URL (./verify starts one and sets it)")
    return value


@pytest.fixture(scope="session")
def rg(url: str) -> Iterator[Railgun]:
    with Railgun(url, token=admin_token()) as client:
        yield client


def payments_spec(**overrides) -> StreamSpec:
    attributes = dict(
        fields={
            "id": "string",
            "ts": "timestamp",
            "card": "string",
            "merchant": "string",
            "amount": "double",
            "country": "string",
            "qty": "long",
        },
        event_id="id",
        timestamp="ts",
        partitioners=["card", "merchant"],
        partitions=2,
        lateness="0s",
    )
    attributes.update(overrides)
    return StreamSpec(**attributes)


@pytest.fixture
def fresh_stream(rg: Railgun) -> Iterator[str]:
    """A name for a stream the test creates; deleted afterwards if it exists."""
    name = unique("py")
    yield name
    try:
        rg.delete_stream(name)
    except NotFoundError:
        pass
