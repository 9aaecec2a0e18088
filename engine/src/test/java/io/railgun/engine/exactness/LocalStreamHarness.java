package io.railgun.engine.exactness;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.EngineUnderTest;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.reservoir.ReservoirFactory;
import io.railgun.engine.task.TaskOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs exactness cases against the in-process {@link LocalStream}, its tasks' reservoirs made by a
 * factory (in memory by default; on disk in {@link ExactnessOverDiskReservoirTest}).
 */
class LocalStreamHarness implements EngineUnderTest.Harness {

    /** The reservoir factory for one case; {@code close} runs when the case ends. */
    protected ReservoirFactory reservoirs(StreamCase c) {
        return ReservoirFactory.IN_MEMORY;
    }

    /** Releases what {@link #reservoirs} made for a case. */
    protected void release(StreamCase c) {}

    @Override
    public EngineUnderTest open(StreamCase c, boolean freshRowBuffers) {
        TaskOptions options = new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(c.timeOrigin())), c.minDedupHorizonMs());
        LocalStream stream = new LocalStream(c.definition(), options, reservoirs(c));
        Schema schema = c.definition().schema();
        EventRowWriter shared = new EventRowWriter();
        return new EngineUnderTest() {
            @Override
            public List<String> addStatement(String sql) throws QueryException {
                return stream.addStatement(sql);
            }

            @Override
            public boolean removeMetric(String name) {
                return stream.removeMetric(name);
            }

            @Override
            public StreamReply process(Map<String, Object> event) {
                return stream.process(freshRowBuffers ? Rows.fresh(schema, event) : Rows.write(shared, schema, event));
            }

            @Override
            public Object read(String metric, Map<String, Object> keyRow) {
                return stream.read(metric, freshRowBuffers ? Rows.fresh(schema, keyRow) : Rows.write(shared, schema, keyRow));
            }

            @Override
            public void close() {
                stream.close();
                release(c);
            }
        };
    }

    @Override
    public OracleStream.Router router(StreamCase c) {
        Schema schema = c.definition().schema();
        EventRowWriter writer = new EventRowWriter();
        return (event, partitioner, partitions) ->
                LocalStream.partitionOf(Rows.write(writer, schema, event), schema.field(partitioner), partitions);
    }

    /** Deletes a case's temporary directory tree (harnesses that put tasks on disk). */
    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
