package io.railgun.engine.query;

/**
 * A window clause (SPEC §4, §5).
 *
 * @param kind    sliding, tumbling or unbounded
 * @param sizeMs  window length W in ms (0 for unbounded)
 * @param delayMs delay D in ms (sliding only; 0 otherwise)
 */
public record WindowSpec(Kind kind, long sizeMs, long delayMs) {
    public enum Kind { SLIDING, TUMBLING, UNBOUNDED }

    public static WindowSpec sliding(long sizeMs, long delayMs) {
        return new WindowSpec(Kind.SLIDING, sizeMs, delayMs);
    }

    public static WindowSpec tumbling(long sizeMs) {
        return new WindowSpec(Kind.TUMBLING, sizeMs, 0);
    }

    public static WindowSpec unbounded() {
        return new WindowSpec(Kind.UNBOUNDED, 0, 0);
    }
}
