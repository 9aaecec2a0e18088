package io.railgun.node.recovery;

import io.railgun.engine.snapshot.SnapshotManifest;
import io.railgun.node.assignment.TaskId;

/**
 * The paths of the peer-recovery endpoints (wire format: {@code docs/distribution.md}), built by the
 * fetching node and parsed by the serving one:
 *
 * <pre>
 *  GET /internal/v1/tasks/{topic}/{partition}/snapshot                          the manifest (SnapshotManifest)
 *  GET /internal/v1/tasks/{topic}/{partition}/snapshots/{id}/files/{dir}/{file}  a file's bytes (Range)
 * </pre>
 *
 * Topics are Kafka topic names ({@code [A-Za-z0-9._-]}, so never escaped), {@code {dir}/{file}} a
 * manifest file name ({@link SnapshotManifest#validName}); anything else does not parse. Immutable.
 *
 * @param task       the task
 * @param snapshotId the snapshot of a file request; -1 for a manifest request
 * @param file       the manifest file name of a file request, else null
 */
record TransferPath(TaskId task, long snapshotId, String file) {
    static final String TASKS = "/internal/v1/tasks/";
    static final String MANIFEST_ROUTE = "/internal/v1/tasks/{topic}/{partition}/snapshot";
    static final String FILE_ROUTE = "/internal/v1/tasks/{topic}/{partition}/snapshots/{id}/files/{name}";

    boolean isManifest() {
        return file == null;
    }

    static String manifest(TaskId task) {
        return TASKS + task.topic() + "/" + task.partition() + "/snapshot";
    }

    static String file(TaskId task, long snapshotId, String name) {
        return TASKS + task.topic() + "/" + task.partition() + "/snapshots/" + snapshotId + "/files/" + name;
    }

    /**
     * Parses a raw path.
     *
     * @throws IllegalArgumentException with what is wrong, when it is none of the two shapes (the
     *                                  message names the bad part; a {@code ..} is a bad file name)
     */
    static TransferPath parse(String rawPath) {
        if (!rawPath.startsWith(TASKS)) {
            throw new IllegalArgumentException("no internal endpoint at " + rawPath);
        }
        String[] seg = rawPath.substring(TASKS.length()).split("/", -1);
        if (seg.length < 3) {
            throw new IllegalArgumentException("no internal endpoint at " + rawPath);
        }
        TaskId task = new TaskId(topic(seg[0]), partition(seg[1]));
        if (seg.length == 3 && seg[2].equals("snapshot")) {
            return new TransferPath(task, -1, null);
        }
        if (seg.length >= 6 && seg[2].equals("snapshots") && seg[4].equals("files")) {
            long id;
            try {
                id = Long.parseLong(seg[3]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("snapshot id '" + seg[3] + "' is not a number");
            }
            String name = String.join("/", java.util.Arrays.copyOfRange(seg, 5, seg.length));
            if (!SnapshotManifest.validName(name)) {
                throw new InvalidFileName(name);
            }
            return new TransferPath(task, id, name);
        }
        throw new IllegalArgumentException("no internal endpoint at " + rawPath);
    }

    private static String topic(String s) {
        if (s.isEmpty() || s.length() > 249 || !s.matches("[A-Za-z0-9._-]+") || s.equals(".") || s.equals("..")) {
            throw new IllegalArgumentException("'" + s + "' is not a topic name");
        }
        return s;
    }

    private static int partition(String s) {
        try {
            int p = Integer.parseInt(s);
            if (p >= 0) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("partition '" + s + "' is not a non-negative number");
    }

    /** A file name outside what a manifest may hold: a path traversal attempt or a mistake. */
    static final class InvalidFileName extends IllegalArgumentException {
        InvalidFileName(String name) {
            super("'" + name + "' is not a snapshot file name: state/<file> or reservoir/<file>, of letters, digits,"
                    + " '.', '_', '-'");
        }
    }
}
