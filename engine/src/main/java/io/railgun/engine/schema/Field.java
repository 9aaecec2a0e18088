package io.railgun.engine.schema;

/** A named, typed, nullable field of a stream schema; {@code index} is its slot in the binary row. */
public record Field(String name, FieldType type, int index) {}
