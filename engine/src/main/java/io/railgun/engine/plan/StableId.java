package io.railgun.engine.plan;

import java.nio.charset.StandardCharsets;

/**
 * 64-bit FNV-1a hash of an operator's name in the plan: how serialised state names its node and
 * aggregator. Names are derived from the metric definitions (and the seq the operator started at),
 * so they are the same after a restart; at 64 bits a collision among a task's operators is not a
 * practical concern.
 */
final class StableId {
    private StableId() {}

    static long of(String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
