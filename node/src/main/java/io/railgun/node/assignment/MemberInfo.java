package io.railgun.node.assignment;

import java.util.List;

/**
 * One member of the task group as the assignment sees it: a processor unit of a node.
 *
 * @param memberId  Kafka's member id (the key of the plan)
 * @param nodeId    the node's id: no two copies of a task on one node
 * @param nodeUrl   the node's internal base URL, where peers fetch task copies (peer recovery)
 * @param unit      the processor unit's index on its node
 * @param budget    how many task copies (active and replica) this processor may run
 * @param held      the copies it holds now
 */
public record MemberInfo(String memberId, String nodeId, String nodeUrl, int unit, int budget, List<HeldCopy> held) {
    public MemberInfo {
        held = List.copyOf(held);
    }
}
