package io.railgun.node.cli.client.send;

import java.io.Closeable;
import java.io.IOException;

/** Reads the events of {@code send} one at a time, in input order. Single-threaded. */
interface EventReader extends Closeable {

    /**
     * @return the next event, or null at the end of the input
     * @throws InputException for a row that is not an event (its line and the reason)
     */
    InputRow next() throws IOException, InputException;
}
