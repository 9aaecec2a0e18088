package io.railgun.node.assignment;

/**
 * A copy of a task that a processor unit holds, with the input offset its last checkpoint resumes
 * at (the most recent checkpoint wins when the plan chooses between stale copies; -1 when unknown).
 */
public record HeldCopy(TaskId task, CopyRole role, long checkpointOffset) {}
