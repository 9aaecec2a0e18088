package io.railgun.node.assignment;

/** What a processor unit holds of a task, as it advertises in its subscription. */
public enum CopyRole {
    /** It runs the task and answers its events. */
    ACTIVE,
    /** It runs a hot copy: same input, same order, same state and checkpoints. */
    REPLICA,
    /** It has the task's files on disk (a checkpoint) but does not run it. */
    STALE
}
