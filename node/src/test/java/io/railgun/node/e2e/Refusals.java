package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Checks of refusals made through the typed client, and the first event of a new stream. Stateless. */
final class Refusals {
    private Refusals() {}

    /**
     * Asserts that {@code call} is refused with this status and code, and a message holding every one
     * of {@code words} (ignoring case).
     */
    static RailgunException refused(ThrowingCallable call, int status, String code, String... words) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("the call should be refused with %d %s", status, code).isInstanceOf(RailgunException.class);
        RailgunException e = (RailgunException) thrown;
        assertThat(e.status()).as("status of: %s %s", e.code(), e.getMessage()).isEqualTo(status);
        assertThat(e.code()).as("code of: %s", e.getMessage()).isEqualTo(code);
        for (String w : words) {
            assertThat(e.getMessage()).as("the message should say what is wrong").containsIgnoringCase(w);
        }
        return e;
    }

    /**
     * Sends the first event of a new stream, retrying while the node answers 503 (its tasks are still
     * being assigned); the event id makes a retry count once.
     */
    static void firstEvent(RailgunClient client, String stream, Map<String, ?> event) {
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        while (true) {
            try {
                client.send(stream, event);
                return;
            } catch (RailgunException e) {
                if (e.status() != 503 || System.nanoTime() > deadlineNs) {
                    throw e;
                }
            }
        }
    }
}
