package io.railgun.node.http;

/** What a bearer token must allow for an endpoint: nothing (health), ingestion, or administration. */
enum Scope {
    NONE,
    /** Sending events and batches, point reads, {@code GET /metrics}. */
    INGEST,
    /** Everything: streams and metrics DDL as well as what INGEST allows. */
    ADMIN
}
