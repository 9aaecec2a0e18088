package io.railgun.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocationFiguresTest {

    private static NodeJvm.Reading reading(long total, long http, long unit, long rmi, long gcCount, long gcMs) {
        return new NodeJvm.Reading(total, Map.of(
                1L, new NodeJvm.Reading.ThreadBytes("ForkJoinPool-1-worker-1", http),
                2L, new NodeJvm.Reading.ThreadBytes("railgun-unit-0", unit),
                3L, new NodeJvm.Reading.ThreadBytes("RMI TCP Connection(2)-127.0.0.1", rmi)),
                Map.of("G1 Young Generation", new long[] {gcCount, gcMs}));
    }

    @Test
    void bytesPerEventByGroupWithoutTheMeasurementsOwn() {
        NodeJvm.Reading before = reading(10_000, 1_000, 2_000, 0, 3, 30);
        // +5,000 http, +3,000 units, +500 jmx, and 1,500 by threads that ended
        NodeJvm.Reading after = reading(20_000, 6_000, 5_000, 500, 5, 42);

        AllocationFigures a = AllocationFigures.between(before, after, 100);

        assertThat(a.bytes()).isEqualTo(10_000 - 500);
        assertThat(a.bytesPerEvent()).isEqualTo(95.0);
        assertThat(a.bytesByGroup()).containsExactly(Map.entry("http", 5_000L), Map.entry("units", 3_000L),
                Map.entry("ended", 1_500L), Map.entry("jmx", 500L));
        assertThat(a.gcCounts()).containsEntry("G1 Young Generation", 2L);
        assertThat(a.gcMs()).containsEntry("G1 Young Generation", 12L);
        assertThat(a.describeGroups()).startsWith("http 50, units 30, ended 15, jmx 5 (not counted)");
        assertThat(a.describeGc()).isEqualTo("G1 Young Generation 2 (12 ms)");
    }

    @Test
    void noFiguresWithoutBothReadingsOrEvents() {
        NodeJvm.Reading r = reading(1, 1, 1, 1, 1, 1);
        assertThat(AllocationFigures.between(null, r, 10)).isNull();
        assertThat(AllocationFigures.between(r, r, 0)).isNull();
    }

    @Test
    void threadGroupsByName() {
        assertThat(AllocationFigures.group("HTTP-Dispatcher")).isEqualTo("http");
        assertThat(AllocationFigures.group("ForkJoinPool-1-worker-3")).isEqualTo("http");
        assertThat(AllocationFigures.group("railgun-unit-1")).isEqualTo("units");
        assertThat(AllocationFigures.group("railgun-replies")).isEqualTo("node");
        assertThat(AllocationFigures.group("kafka-producer-network-thread | producer-1")).isEqualTo("kafka-clients");
        assertThat(AllocationFigures.group("data-plane-kafka-request-handler-0")).isEqualTo("broker");
        assertThat(AllocationFigures.group("RMI TCP Connection(3)-127.0.0.1")).isEqualTo("jmx");
        assertThat(AllocationFigures.group("Reference Handler")).isEqualTo("jvm");
    }
}
