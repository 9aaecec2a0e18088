package io.railgun.node.cli.client.send;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.EventReply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary's counts, in particular duplicates answered to a batch sent again after a 503. */
class SendTallyTest {

    private static EventReply reply(String id, boolean duplicate, boolean late) {
        return new EventReply(id, Map.of(), duplicate, late);
    }

    @Test
    void countsEachKindOfReply() {
        var tally = new SendTally();
        tally.add(List.of(reply("a", false, false), reply("b", true, false), reply("c", false, true)), false);
        assertThat(tally.sent()).isEqualTo(3);
        assertThat(tally.counted()).isEqualTo(1);
        assertThat(tally.duplicates()).isEqualTo(1);
        assertThat(tally.droppedLate()).isEqualTo(1);
        assertThat(tally.summary(2_000_000_000L))
                .isEqualTo("3 events in 2.0 s (2 events/s): 1 counted, 1 duplicate, 1 dropped late");
    }

    @Test
    void duplicatesOfABatchSentAgainWereCountedByTheAttemptThatGotNoAnswer() {
        var tally = new SendTally();
        // the first attempt counted a and b, then the node answered 503; the second attempt answers duplicate
        tally.add(List.of(reply("a", true, false), reply("b", true, false), reply("c", false, false)), true);
        assertThat(tally.counted()).isEqualTo(3);
        assertThat(tally.duplicates()).isZero();
        assertThat(tally.retriedBatches()).isEqualTo(1);
        assertThat(tally.summary(1_000_000_000L)).endsWith("; 1 batch sent again after a 503 or timeout");
    }

    @Test
    void aRepeatedIdInsideABatchSentAgainIsStillADuplicate() {
        var tally = new SendTally();
        tally.add(List.of(reply("a", true, false), reply("a", true, false)), true);
        assertThat(tally.counted()).isEqualTo(1);
        assertThat(tally.duplicates()).isEqualTo(1);
    }
}
