package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SecureDefaultsTest {
    @TempDir
    static Path dir;
    static Node node;
    static RawHttp raw;

    @BeforeAll
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    static void startNode() {
        node = Node.start(NodeConfig.defaults().withDataDir(dir.resolve("node")).withHttp("127.0.0.1", 0)
                .withProcessors(1));
        raw = new RawHttp(node.uri());
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void streamNamesKafkaWouldConfuseAreRefusedBeforeAnyTopicIsCreated() throws Exception {
        String spec = "{\"fields\": {\"id\": \"string\", \"card\": \"string\"}, \"eventId\": \"id\","
                + " \"partitioners\": [\"card\"]}";
        assertThat(raw.send("PUT", "/v1/streams/col.x", spec).status()).isEqualTo(201);
        Set<String> before = topics();
        for (int attempt = 0; attempt < 2; attempt++) {
            RawHttp.Response r = raw.send("PUT", "/v1/streams/col_x", spec);
            System.out.println("PUT col_x: " + r.status() + " " + r.body());
            r.assertError(409, "stream_name_clash", "col.x", "col_x");
        }
        assertThat(topics()).as("no topic left behind").isEqualTo(before);
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", node.bootstrapServers()))) {
            return new TreeSet<>(admin.listTopics().names().get(30, TimeUnit.SECONDS));
        }
    }
}
