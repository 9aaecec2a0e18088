package io.railgun.client;

/**
 * What {@code PUT /v1/streams/{stream}} did (SPEC §3.1), from its status. An incompatible change is
 * not a result but a {@link RailgunException} with status 409.
 */
public enum StreamPutResult {
    /** 201: the stream did not exist and was created. */
    CREATED,
    /** 200: the stream existed; its schema was changed compatibly (or was already the same). */
    UPDATED
}
