package io.railgun.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BatchBodyTest {
    private static final byte[][] BODIES = {bytes("{\"id\":\"e0\"}"), bytes("{\"id\":\"e1\"}"), bytes("{\"id\":\"e2\"}")};

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void joinsTheBodiesIntoAJsonArray() {
        assertThat(new String(BatchBody.of(BODIES, 0, 3), StandardCharsets.UTF_8))
                .isEqualTo("[{\"id\":\"e0\"},{\"id\":\"e1\"},{\"id\":\"e2\"}]");
        assertThat(new String(BatchBody.of(BODIES, 1, 2), StandardCharsets.UTF_8))
                .isEqualTo("[{\"id\":\"e1\"},{\"id\":\"e2\"}]");
        assertThat(new String(BatchBody.of(BODIES, 2, 1), StandardCharsets.UTF_8)).isEqualTo("[{\"id\":\"e2\"}]");
    }

    @Test
    void refusesARangeOutsideTheBodies() {
        assertThatThrownBy(() -> BatchBody.of(BODIES, 2, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchBody.of(BODIES, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countsEveryDroppedOrDuplicateReplyOfABatch() {
        byte[] reply = bytes("[{\"eventId\":\"a\",\"dropped\":\"late\"},{\"eventId\":\"b\"},"
                + "{\"eventId\":\"c\",\"dropped\":\"late\",\"duplicate\":true}]");
        assertThat(ReplyTally.occurrences(reply, bytes("\"dropped\""))).isEqualTo(2);
        assertThat(ReplyTally.occurrences(reply, bytes("\"duplicate\":true"))).isEqualTo(1);
        assertThat(ReplyTally.occurrences(bytes("{}"), bytes("\"dropped\""))).isZero();
    }
}
