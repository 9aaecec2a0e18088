package io.railgun.engine.oracle;

/** How the oracle's task treated an event (mirrors the engine's ReplyStatus). */
public enum TaskStatus { COUNTED, REWRITTEN, DUPLICATE, DROPPED_LATE }
