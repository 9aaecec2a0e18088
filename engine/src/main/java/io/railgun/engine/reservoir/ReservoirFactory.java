package io.railgun.engine.reservoir;

/**
 * Creates the reservoir of each task of a stream: in memory ({@link #IN_MEMORY}) or on disk
 * ({@link io.railgun.engine.reservoir.disk.DiskReservoir}, one directory per task).
 */
@FunctionalInterface
public interface ReservoirFactory {
    /** Reservoirs held in heap, for tests and small deployments. */
    ReservoirFactory IN_MEMORY = (stream, partitioner, partition) -> new InMemoryReservoir();

    /** Opens (or creates) the reservoir of task (stream, partitioner, partition). */
    EventReservoir open(String stream, String partitioner, int partition);
}
