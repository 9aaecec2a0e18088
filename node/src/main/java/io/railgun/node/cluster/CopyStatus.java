package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;

/**
 * One copy of a task that a node holds, as it reports it in its {@link NodeStatus}: an immutable
 * value, built by a {@link LocalCopies} and read on any thread.
 *
 * @param stream             the stream's name
 * @param partitioner        the partitioner field whose topic the task reads
 * @param partition          the topic's partition
 * @param role               active (answers events), replica (hot copy) or stale (files on disk, not run)
 * @param lag                input records the copy has not read yet (end offset − position), -1 when unknown
 * @param checkpointOffset   the input offset its last complete checkpoint resumes at, -1 when unknown
 * @param checkpointAgeMs    0 when that checkpoint covers every record read; else its age in ms; -1 when unknown
 * @param recoveryBytesDone  bytes copied from a peer so far while the copy is being recovered, else -1
 * @param recoveryBytesTotal bytes the recovery must copy in all (-1 when not recovering or not known yet)
 */
public record CopyStatus(String stream, String partitioner, int partition, CopyRole role, long lag, long checkpointOffset,
        long checkpointAgeMs, long recoveryBytesDone, long recoveryBytesTotal) {

    /** A copy that is not being recovered. */
    public static CopyStatus running(String stream, String partitioner, int partition, CopyRole role, long lag,
            long checkpointOffset, long checkpointAgeMs) {
        return new CopyStatus(stream, partitioner, partition, role, lag, checkpointOffset, checkpointAgeMs, -1, -1);
    }

    /** {@code stream/partitioner-partition}, how logs, metrics and the cluster view name a task. */
    public String task() {
        return stream + "/" + partitioner + "-" + partition;
    }

    /** Whether the copy is being recovered from a peer. */
    public boolean recovering() {
        return recoveryBytesDone >= 0;
    }
}
