package io.railgun.engine.oracle;

/**
 * One disagreement between the engine and the oracle.
 *
 * @param eventIndex the event whose reply disagreed; -1 while adding statements; the event count
 *                   for point reads after the stream
 * @param metric     the metric concerned, or null
 * @param category   a stable class of the problem (e.g. {@code value SUM/SLIDING},
 *                   {@code flag duplicate}, {@code exception process}) used to keep a shrunk case on the same bug
 * @param detail     expected and actual, readable
 */
public record Mismatch(int eventIndex, String metric, String category, String detail) {
    @Override
    public String toString() {
        return "[" + category + "] " + (eventIndex >= 0 ? "event #" + eventIndex + " " : "") + (metric != null ? metric + ": " : "") + detail;
    }
}
