package io.railgun.bench.faults;

/**
 * What the brute-force recomputation says one event record of the input topic must be answered
 * with: its flags and the values of the suite's three metrics for its card at its task's stream time
 * after it. A metric not yet added at that point of the partition is {@code absent}.
 *
 * @param record      the input record
 * @param duplicate   its id was already counted (within the dedup horizon): not counted again
 * @param late        more than the lateness behind stream time: dropped, not counted
 * @param sumQuarters SUM(amount) over the sliding window in units of 0.25, or null when the window
 *                    is empty (SQL: SUM of nothing is NULL)
 * @param count       COUNT(*) over the sliding window
 * @param countAll    COUNT(*) over the unbounded window
 * @param windowAbsent the sliding-window statement was not added yet at this record
 * @param allAbsent   the unbounded statement was not added yet at this record
 */
record Expected(InputRecord record, boolean duplicate, boolean late, Long sumQuarters, long count, long countAll,
                boolean windowAbsent, boolean allAbsent) {}
