package io.railgun.node.backend;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The tasks this node opened whose input no longer reaches back to where they had to start: opened
 * without a checkpoint (no copy of the task survived anywhere: it rebuilds from offset 0) or with a
 * checkpoint older than what Kafka still holds, while the input topic's retention had already
 * deleted the records before {@code earliestOffset}. Their windows then lack those events, and the
 * results are not exact until the longest window has moved past them: each such opening is logged
 * as an ERROR and counted in {@code railgun_task_history_incomplete}, for as long as this node runs.
 *
 * <p>Thread-safe: recorded by the processor units' threads, read by scrapes.
 */
public final class HistoryGaps {
    private static final System.Logger LOG = System.getLogger(HistoryGaps.class.getName());

    /**
     * One task opened with missing history.
     *
     * @param stream         the task's stream
     * @param partitioner    the partitioner field whose topic the task reads
     * @param partition      the topic's partition
     * @param resumeOffset   where the task had to start: its checkpoint's offset, 0 without one
     * @param earliestOffset the first offset the input topic still holds
     */
    public record Gap(String stream, String partitioner, int partition, long resumeOffset, long earliestOffset) {
        /** {@code stream/partitioner-partition}, as {@link TaskStats#name()}. */
        public String name() {
            return stream + "/" + partitioner + "-" + partition;
        }

        /** Input records the task never saw. */
        public long missingRecords() {
            return earliestOffset - resumeOffset;
        }
    }

    private final ConcurrentMap<String, Gap> gaps = new ConcurrentHashMap<>();

    /**
     * Records and logs a gap when {@code earliestOffset > resumeOffset}; does nothing otherwise.
     *
     * @return whether the task's history is incomplete
     */
    public boolean check(String stream, String partitioner, int partition, long resumeOffset, long earliestOffset) {
        if (earliestOffset <= resumeOffset) {
            return false;
        }
        Gap gap = new Gap(stream, partitioner, partition, resumeOffset, earliestOffset);
        gaps.put(gap.name(), gap);
        String why = resumeOffset == 0
                ? "no copy of this task survived (no checkpoint here or on a peer), so it is rebuilt from what Kafka still"
                        + " holds"
                : "its checkpoint resumes at offset " + resumeOffset + ", older than what Kafka still holds";
        LOG.log(System.Logger.Level.ERROR, "task {0}: HISTORY INCOMPLETE: {1}; the input topic''s retention deleted"
                + " offsets {2} to {3} ({4} record(s)), so its windows lack the events before offset {5} and its results"
                + " are not exact until its longest window has passed them. Keep input retention longer than a task"
                + " may stay without a copy (--input-retention, the stream''s inputRetention), and run replicas.",
                gap.name(), why, Long.toString(resumeOffset), Long.toString(earliestOffset - 1),
                Long.toString(gap.missingRecords()), Long.toString(earliestOffset));
        return true;
    }

    /** The gaps recorded, in no particular order. */
    public List<Gap> gaps() {
        return List.copyOf(gaps.values());
    }
}
