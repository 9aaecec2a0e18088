package io.railgun.client;

import java.util.Locale;

/**
 * What a stream does with an event later than its {@code lateness}: the {@code "lateEvents"}
 * attribute of {@code PUT /v1/streams/{stream}} (SPEC §3.1). The node's default is {@link #DROP}.
 */
public enum LateEvents {
    /** Not counted; the event's reply says {@code "dropped": "late"} ({@link EventReply#droppedLate()}). */
    DROP("drop"),
    /** Counted at the partition's stream time minus the lateness instead of its own timestamp. */
    REWRITE("rewrite");

    private final String jsonName;

    LateEvents(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name on the wire: {@code "drop"} or {@code "rewrite"}. */
    public String jsonName() {
        return jsonName;
    }

    /**
     * The policy named {@code jsonName} (case-insensitive).
     *
     * @throws IllegalArgumentException for anything but {@code drop} and {@code rewrite}
     */
    public static LateEvents fromJson(String jsonName) {
        for (LateEvents policy : values()) {
            if (policy.jsonName.equals(jsonName.toLowerCase(Locale.ROOT))) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown lateEvents '" + jsonName + "'; expected drop or rewrite");
    }
}
