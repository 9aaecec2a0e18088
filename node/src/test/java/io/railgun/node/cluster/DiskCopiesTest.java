package io.railgun.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.backend.StaleCopies;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.CatalogCodec;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stale copies in the cluster view: task directories of streams in the catalog that no unit runs. */
class DiskCopiesTest {
    @TempDir
    Path tasks;

    @Test
    void reportsTaskDirectoriesNoUnitRunsAsStaleWithTheirStreamAndPartitioner() throws Exception {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("card.no", FieldType.STRING);
        StreamEntry pay = new StreamEntry(new StreamDefinition("pay", Schema.of(fields), "id", null, List.of("card.no"), 3, 0,
                LateEventPolicy.DROP), "g1", 1, List.of());
        Catalog catalog = new Catalog();
        catalog.apply(CatalogCodec.key("pay"), CatalogCodec.encode(pay, 0), 0);
        String topic = Topics.input(pay, "card.no");
        String dirName = topic.substring(topic.lastIndexOf('.') + 1); // as the units name task directories
        for (int i = 0; i < 3; i++) {
            Files.createDirectories(tasks.resolve("pay.g1").resolve(dirName + "-" + i));
        }
        Files.createDirectories(tasks.resolve("gone.g0").resolve("card-0")); // a stream not in the catalog
        LocalCopies running = () -> List.of(CopyStatus.running("pay", "card.no", 1, CopyRole.ACTIVE, 0, 10, 0));
        StaleCopies stale = new StaleCopies(tasks);
        List<CopyStatus> copies = new DiskCopies(catalog, stale::snapshot, running).copies();
        assertThat(copies).extracting(CopyStatus::task, CopyStatus::role).containsExactly(
                tuple("pay/card.no-1", CopyRole.ACTIVE), tuple("pay/card.no-0", CopyRole.STALE),
                tuple("pay/card.no-2", CopyRole.STALE));
        assertThat(copies.get(1).checkpointOffset()).isEqualTo(-1); // found at start: not read
        // a checkpoint offset the node knows is shown
        List<CopyStatus> known = new DiskCopies(catalog, () -> Map.of(new TaskId(topic, 2), 1234L), LocalCopies.NONE)
                .copies();
        assertThat(known).extracting(CopyStatus::task, CopyStatus::checkpointOffset).containsExactly(
                tuple("pay/card.no-2", 1234L));
    }
}
