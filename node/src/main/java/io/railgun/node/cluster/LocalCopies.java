package io.railgun.node.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The task copies this node holds, as the cluster view shows them: what the node's
 * {@link ClusterPublisher} reports about once a second. Today the processor units' actives and
 * replicas ({@link UnitCopies}) and the task directories no unit runs (stale, {@link DiskCopies});
 * recoveries in progress add their own source, and the node combines sources with {@link #of}.
 *
 * <p>Called on the publisher's thread: implementations must be thread-safe and cheap (read
 * snapshots the owning threads publish; never block on them).
 */
@FunctionalInterface
public interface LocalCopies {
    /** No copies (a node without units, tests). */
    LocalCopies NONE = List::of;

    /** The copies now; never null. */
    List<CopyStatus> copies();

    /** The copies of every source, in order. */
    static LocalCopies of(List<LocalCopies> sources) {
        List<LocalCopies> all = List.copyOf(sources);
        return () -> {
            List<CopyStatus> copies = new ArrayList<>();
            for (LocalCopies source : all) {
                copies.addAll(source.copies());
            }
            return copies;
        };
    }
}
