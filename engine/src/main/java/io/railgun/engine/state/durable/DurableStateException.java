package io.railgun.engine.state.durable;

/** The durable state store could not be opened, read or written (RocksDB's error in the message). */
public final class DurableStateException extends RuntimeException {
    public DurableStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
