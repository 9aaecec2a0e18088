package io.railgun.engine.window;

import io.railgun.engine.query.WindowSpec;

/**
 * The edges of windows as functions of stream time T (SPEC §5). A window holds the events with
 * {@code tail(T) < t <= head(T)}:
 * <ul>
 *   <li>sliding {@code [RANGE W DELAY D]}: head = T - D, tail = T - D - W</li>
 *   <li>tumbling {@code [TUMBLING W]}: head = T, tail = floor(T / W) * W - 1</li>
 *   <li>unbounded: head = T, no tail</li>
 * </ul>
 * An edge is identified by an {@link Edge} value, so windows with the same head (same delay) or the
 * same tail (same W + D, or same tumbling W) share one reservoir cursor (paper §4.1.1).
 */
public final class WindowBounds {
    private WindowBounds() {}

    /** Kinds of edges. */
    public enum EdgeKind { HEAD, SLIDING_TAIL, TUMBLING_TAIL }

    /** One edge function: HEAD(D) = T - D; SLIDING_TAIL(E) = T - E; TUMBLING_TAIL(W) = floor(T/W)*W - 1. */
    public record Edge(EdgeKind kind, long parameterMs) {
        /** The edge's boundary at stream time {@code t}: events with timestamp at or below it have passed it. */
        public long boundary(long t) {
            return switch (kind) {
                case HEAD, SLIDING_TAIL -> minus(t, parameterMs);
                case TUMBLING_TAIL -> minus(Math.floorDiv(t, parameterMs) * parameterMs, 1);
            };
        }
    }

    public static Edge head(WindowSpec spec) {
        return new Edge(EdgeKind.HEAD, spec.kind() == WindowSpec.Kind.SLIDING ? spec.delayMs() : 0);
    }

    /** The window's tail edge, or null for unbounded windows. */
    public static Edge tail(WindowSpec spec) {
        return switch (spec.kind()) {
            case SLIDING -> new Edge(EdgeKind.SLIDING_TAIL, saturatedAdd(spec.sizeMs(), spec.delayMs()));
            case TUMBLING -> new Edge(EdgeKind.TUMBLING_TAIL, spec.sizeMs());
            case UNBOUNDED -> null;
        };
    }

    /** How far behind stream time the window reaches (W + D, or W), 0 for unbounded. */
    public static long extentMs(WindowSpec spec) {
        return switch (spec.kind()) {
            case SLIDING -> saturatedAdd(spec.sizeMs(), spec.delayMs());
            case TUMBLING -> spec.sizeMs();
            case UNBOUNDED -> 0;
        };
    }

    /** {@code a - b} for b >= 0, saturating at Long.MIN_VALUE. */
    public static long minus(long a, long b) {
        long r = a - b;
        return r > a ? Long.MIN_VALUE : r;
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < a ? Long.MAX_VALUE : r;
    }
}
