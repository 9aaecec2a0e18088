package io.railgun.engine.reservoir.disk;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * An I/O failure of the on-disk reservoir (disk full, file removed behind its back, ...). Fatal for
 * the task: the reservoir stops writing, and the next call on the task's thread throws this. The
 * message names the directory and the operation.
 */
public final class ReservoirIoException extends UncheckedIOException {
    public ReservoirIoException(String message, IOException cause) {
        super(message, cause);
    }
}
