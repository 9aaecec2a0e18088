package io.railgun.node.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which stream names and partitioners give topics Kafka would confuse ('.' read as '_'). */
class TopicNameClashTest {
    @Test
    void namesThatDifferOnlyByDotAgainstUnderscoreClashWithTheOtherStream() {
        StreamEntry dotted = stream("col.x", "gen1", "card");
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> TopicNameClash.checkStreams(stream("col_x", "gen2", "card"), List.of(dotted)));
        assertThat(e.status()).isEqualTo(409);
        assertThat(e.code()).isEqualTo("stream_name_clash");
        assertThat(e.getMessage()).contains("'col_x'").contains("stream 'col.x'")
                .contains("railgun.ingest.col_x").contains("railgun.ingest.col.x");
        // and the other way round, and a name with both
        assertThat(catchThrowableOfType(ApiException.class, () -> TopicNameClash.checkStreams(
                stream("col.x", "gen2", "card"), List.of(stream("col_x", "gen1", "card")))).status()).isEqualTo(409);
        assertThat(catchThrowableOfType(ApiException.class, () -> TopicNameClash.checkStreams(
                stream("a_b.c", "gen2", "card"), List.of(stream("a.b_c", "gen1", "card")))).status()).isEqualTo(409);
    }

    @Test
    void aStreamNamedLikeAnotherOnesReplyTopicClashesWithIt() {
        // railgun.ingest.orders.replies is the reply topic of 'orders' and the ingest topic of 'orders.replies'
        for (String name : List.of("orders.replies", "orders_replies")) {
            ApiException e = catchThrowableOfType(ApiException.class, () -> TopicNameClash.checkStreams(
                    stream(name, "gen2", "card"), List.of(stream("orders", "gen1", "card"))));
            assertThat(e.status()).as(name).isEqualTo(409);
            assertThat(e.getMessage()).contains("stream 'orders'");
        }
    }

    @Test
    void distinctNamesCaseAndTheStreamsOwnNamePass() {
        List<StreamEntry> existing = List.of(stream("col.x", "gen1", "card"), stream("Col_y", "gen1", "card"));
        for (String name : List.of("col-x", "colx", "col.y", "COL.X", "col.x.y")) {
            assertThatCode(() -> TopicNameClash.checkStreams(stream(name, "gen2", "card"), existing)).as(name)
                    .doesNotThrowAnyException();
        }
        // a stream deleted and created again: the old entry has the same name (never a clash with itself)
        assertThatCode(() -> TopicNameClash.checkStreams(stream("col.x", "gen2", "card"), existing))
                .doesNotThrowAnyException();
    }

    @Test
    void partitionersThatMapToOneTopicAreRefused() {
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> TopicNameClash.checkStreams(stream("s", "gen1", "a.b", "a_b"), List.of()));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("invalid_stream");
        assertThat(e.getMessage()).contains("railgun.s.s.gen1.a_b").contains("rename a field");
        assertThat(catchThrowableOfType(ApiException.class,
                () -> TopicNameClash.checkStreams(stream("s", "gen1", "a b", "a/b"), List.of())).status())
                .isEqualTo(400);
        assertThatCode(() -> TopicNameClash.checkStreams(stream("s", "gen1", "a-b", "a_b"), List.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void aTopicNoStreamOwnsClashesButTheStreamsOwnTopicsDoNot() {
        StreamEntry created = stream("col_x", "gen2", "card");
        ApiException e = catchThrowableOfType(ApiException.class, () -> TopicNameClash.checkKafkaTopics(created,
                Set.of(Topics.CONTROL, "railgun.ingest.col.x.replies")));
        assertThat(e.status()).isEqualTo(409);
        assertThat(e.code()).isEqualTo("stream_name_clash");
        assertThat(e.getMessage()).contains("railgun.ingest.col.x.replies").contains("no stream owns")
                .contains("retry in a few seconds");
        // the same names: the topics of a stream of this name deleted a moment ago (createTopics finds them there)
        assertThatCode(() -> TopicNameClash.checkKafkaTopics(created, Set.copyOf(Topics.of(created))))
                .doesNotThrowAnyException();
    }

    private static StreamEntry stream(String name, String generation, String... partitioners) {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        for (String p : partitioners) {
            fields.put(p, FieldType.STRING);
        }
        StreamDefinition d = new StreamDefinition(name, Schema.of(fields), "id", null, List.of(partitioners), 2, 0,
                LateEventPolicy.DROP);
        return new StreamEntry(d, generation, 1, List.of());
    }
}
