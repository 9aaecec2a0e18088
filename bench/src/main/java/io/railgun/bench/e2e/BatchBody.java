package io.railgun.bench.e2e;

/**
 * The body of {@code POST /v1/streams/{stream}/events:batch}: a JSON array of pre-serialised events,
 * built from {@link JsonPayments}' bodies when the batch is sent (after any timestamp shift of its
 * events). Stateless.
 */
final class BatchBody {
    private BatchBody() {}

    /** {@code [b[from],b[from+1],...]} of {@code count} bodies, each a JSON object. */
    static byte[] of(byte[][] bodies, int from, int count) {
        if (count < 1 || from < 0 || from + count > bodies.length) {
            throw new IllegalArgumentException("no batch of " + count + " from " + from + " of " + bodies.length);
        }
        int size = 1 + count; // '[' and the commas and ']'
        for (int i = from; i < from + count; i++) {
            size += bodies[i].length;
        }
        byte[] out = new byte[size];
        int at = 0;
        out[at++] = '[';
        for (int i = from; i < from + count; i++) {
            if (i > from) {
                out[at++] = ',';
            }
            System.arraycopy(bodies[i], 0, out, at, bodies[i].length);
            at += bodies[i].length;
        }
        out[at] = ']';
        return out;
    }
}
