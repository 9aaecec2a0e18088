package io.railgun.node.cli.client.send;

/** A row of the input that cannot become an event: its line and what is wrong with it. */
final class InputException extends Exception {
    private final long line;

    InputException(long line, String message) {
        super(message, null, false, false);
        this.line = line;
    }

    long line() {
        return line;
    }
}
