package io.railgun.node.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.DdlCodec.Marker;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DDL ledger as the catalog applies control records in log order: a change with markers is
 * pending until its completion; claims are decided by log order (one per attempt); records of
 * another version or generation change nothing; compaction (claims missing) is tolerated.
 */
class DdlLedgerTest {
    final Catalog catalog = new Catalog();
    long offset;

    static StreamEntry stream(String generation, long version) {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card", FieldType.STRING);
        return new StreamEntry(new StreamDefinition("pay", Schema.of(fields), "id", null, List.of("card"), 2, 0,
                LateEventPolicy.DROP), generation, version, List.of());
    }

    void streamRecord(StreamEntry e, long basedOn, String writer) {
        byte[] value = CatalogCodec.encode(e, basedOn);
        if (writer != null) {
            value = DdlCodec.withMarkers(value, new DdlCodec.Markers(writer, 1000 * e.version(), List.of(new Marker("card",
                    ("marker-" + e.version()).getBytes(StandardCharsets.UTF_8)))));
        }
        catalog.apply(CatalogCodec.key("pay"), value, offset++);
    }

    boolean ledger(byte[] value) throws Exception {
        long at = offset++;
        catalog.apply(DdlCodec.ledgerKey("pay"), value, at);
        return catalog.awaitApplied(at, 1000);
    }

    @Test
    void aChangeWithMarkersIsPendingUntilItsCompletion() throws Exception {
        streamRecord(stream("g", 1), 0, null);
        assertThat(catalog.ddl().pending("pay")).isNull();
        streamRecord(stream("g", 2), 1, "n1");
        DdlLedger.Pending p = catalog.ddl().pending("pay");
        assertThat(p.version()).isEqualTo(2);
        assertThat(p.owner()).isEqualTo("n1");
        assertThat(p.attempt()).isZero();
        assertThat(new String(p.markers().getFirst().value(), StandardCharsets.UTF_8)).isEqualTo("marker-2");
        assertThat(p.markers().getFirst().partitioner()).isEqualTo("card");
        // a completion of another version, or of another generation, changes nothing
        assertThat(ledger(DdlCodec.done("g", 1, "n1", 5))).isFalse();
        assertThat(ledger(DdlCodec.done("other", 2, "n1", 5))).isFalse();
        assertThat(catalog.ddl().pending("pay")).isNotNull();
        assertThat(ledger(DdlCodec.done("g", 2, "n1", 5))).isTrue();
        assertThat(catalog.ddl().pending("pay")).isNull();
        assertThat(catalog.ddl().pending()).isEmpty();
    }

    @Test
    void theFirstClaimOfAnAttemptWinsAndLaterAttemptsTakeOver() throws Exception {
        streamRecord(stream("g", 1), 0, null);
        streamRecord(stream("g", 2), 1, "dead");
        assertThat(ledger(DdlCodec.claimed("g", 2, "n2", 70_000, 1))).isTrue();
        assertThat(ledger(DdlCodec.claimed("g", 2, "n3", 70_001, 1))).isFalse(); // lost the race
        assertThat(catalog.ddl().pending("pay").owner()).isEqualTo("n2");
        assertThat(catalog.ddl().pending("pay").atMs()).isEqualTo(70_000);
        // n2 died too; after compaction the claims between may be gone: any higher attempt takes over
        assertThat(ledger(DdlCodec.claimed("g", 2, "n3", 140_000, 5))).isTrue();
        assertThat(catalog.ddl().pending("pay").attempt()).isEqualTo(5);
        assertThat(ledger(DdlCodec.claimed("g", 2, "n4", 140_000, 4))).isFalse();
        assertThat(ledger(DdlCodec.done("g", 2, "n3", 150_000))).isTrue();
        assertThat(ledger(DdlCodec.claimed("g", 2, "n4", 160_000, 6))).isFalse(); // settled: nothing to claim
    }

    @Test
    void aNewChangeReplacesTheSettledOneAndDeletionForgetsIt() throws Exception {
        streamRecord(stream("g", 1), 0, null);
        streamRecord(stream("g", 2), 1, "n1");
        ledger(DdlCodec.done("g", 2, "n1", 5));
        streamRecord(stream("g", 3), 2, "n1");
        assertThat(catalog.ddl().pending("pay").version()).isEqualTo(3);
        catalog.apply(CatalogCodec.key("pay"), null, offset++);
        assertThat(catalog.ddl().pending("pay")).isNull();
    }

    @Test
    void recordsOfAnotherFormatVersionAreIgnored() throws Exception {
        streamRecord(stream("g", 1), 0, null);
        streamRecord(stream("g", 2), 1, "n1");
        byte[] future = new String(DdlCodec.done("g", 2, "n1", 5), StandardCharsets.UTF_8).replace("\"v\":1", "\"v\":2")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(ledger(future)).isFalse();
        assertThat(catalog.ddl().pending("pay")).isNotNull();
    }
}
