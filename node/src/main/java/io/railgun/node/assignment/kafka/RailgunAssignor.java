package io.railgun.node.assignment.kafka;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.assignment.placement.TaskPlacement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task group's partition assignor ({@code partition.assignment.strategy}, name
 * {@value #NAME}): runs {@link TaskPlacement} on the group leader and hands each member its active
 * tasks as Kafka partitions and its replica tasks and recovery sources in the assignment's user
 * data ({@link AssignmentDescriptor}), the way Kafka Streams hands out standby tasks. Each member
 * advertises its node, budget and held copies in its subscription's user data
 * ({@link SubscriptionDescriptor}), taken from the {@link AssignmentHolder} found in the consumer's
 * configuration under {@link AssignmentHolder#CONFIG_KEY}; the replication factor is
 * {@value #REPLICATION_CONFIG} (an Integer or a String, default 1).
 *
 * <p><b>Why Kafka's classic group protocol</b> ({@code group.protocol=classic}): only there does
 * the group leader, a client, run the assignor, with every member's subscription user data in
 * hand. The consumer protocol of KIP-848 moves assignment to the broker, whose server-side
 * assignors see topics, racks and owned partitions but no user data: they cannot know which node
 * holds a replica or a stale copy, nor hand out replica tasks and sources.
 *
 * <p><b>Cooperative rebalancing</b> (preferred; {@link RebalanceProtocol#EAGER} also works): Kafka
 * refuses an assignment that gives a partition to a new member while a member that owns it
 * ({@code Subscription.ownedPartitions}) keeps it. Like {@code CooperativeStickyAssignor}, the
 * assignor leaves such a partition out of this round: its owner revokes it, rejoins, and the
 * follow-up rebalance assigns it to the member planned now. Meanwhile the member planned to take
 * it gets it as a replica (unless a unit of its own node owns it): a replica it runs stays open and
 * the follow-up promotes it in place, one it lacks warms up from its sources at once. Under
 * the eager protocol members own nothing when they join, so nothing is left out. The leader
 * remembers the moves it left out and its next plan finishes them ({@link TaskPlacement}'s first
 * rule): a plan computed from scratch would take a revoked task for one whose owner failed. A new
 * leader in between only loses that hint. Owned partitions
 * count as active copies even if a member's held copies say otherwise (Kafka's view wins).
 *
 * <p><b>Plans that are not final</b>: every member's assignment says whether moves were left to a
 * follow-up and which subscription it was made for ({@link AssignmentDescriptor}). A member whose
 * first plan left moves out, or whose plan was made before it subscribed to some of its topics, asks
 * for a rebalance through {@link AssignmentHolder#rebalanceDue}. Usually Kafka starts that
 * rebalance anyway (the owner rejoins after revoking; a member rejoins when its subscription
 * changes), and asking only brings it forward; but Kafka hands a static member that rejoins a
 * stable group its stored
 * assignment without any rebalance, and when the node that was to rejoin died between the two
 * rounds (an embedded broker, restarted with its node, also forgets the round in progress), that
 * plan would stay in force, the tasks left out assigned to no member.
 *
 * <p>Thread: Kafka calls every method on the consumer's thread (the processor unit's), from inside
 * {@code poll}; {@link #assign} runs only on the group leader's.
 */
public final class RailgunAssignor implements ConsumerPartitionAssignor, Configurable {
    public static final String NAME = "railgun";
    public static final String REPLICATION_CONFIG = "railgun.replication";
    private static final Logger LOG = LoggerFactory.getLogger(RailgunAssignor.class);

    private AssignmentHolder holder;
    private int replication = 1;
    private String memberId = "";
    /** The topics this member last joined with (its subscription, as the leader will see it). */
    private Set<String> joined = Set.of();
    /** Whether this consumer has had a plan yet (its first may be a stored one, handed back). */
    private boolean planned;
    /** The moves this leader's last plan left out for the follow-up rebalance: task to member id. */
    private Map<TaskId, String> leftForFollowUp = Map.of();

    @Override
    public void configure(Map<String, ?> configs) {
        Object h = configs.get(AssignmentHolder.CONFIG_KEY);
        if (!(h instanceof AssignmentHolder assignmentHolder)) {
            throw new ConfigException(AssignmentHolder.CONFIG_KEY, h,
                    "the railgun assignor needs the processor unit's AssignmentHolder object in the consumer configuration");
        }
        holder = assignmentHolder;
        replication = replication(configs.get(REPLICATION_CONFIG));
    }

    private static int replication(Object value) {
        if (value == null) {
            return 1;
        }
        int r;
        try {
            r = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(REPLICATION_CONFIG, value, "must be a whole number of copies per task, 1 or more");
        }
        if (r < 1) {
            throw new ConfigException(REPLICATION_CONFIG, value, "must be a whole number of copies per task, 1 or more");
        }
        return r;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER);
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        if (holder == null) {
            throw new IllegalStateException("the railgun assignor was not configured with an AssignmentHolder");
        }
        joined = Set.copyOf(topics);
        return SubscriptionDescriptor.encode(holder.describe(memberId));
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> subscriptions = new TreeMap<>(groupSubscription.groupSubscription());
        List<MemberInfo> members = new ArrayList<>(subscriptions.size());
        Map<String, Set<String>> topicsByMember = new HashMap<>();
        Map<TaskId, Set<String>> owners = new HashMap<>();
        Set<String> topics = new TreeSet<>();
        for (Map.Entry<String, Subscription> e : subscriptions.entrySet()) {
            String id = e.getKey();
            Subscription s = e.getValue();
            for (TopicPartition tp : s.ownedPartitions()) {
                owners.computeIfAbsent(task(tp), t -> new HashSet<>()).add(id);
            }
            members.add(withOwned(SubscriptionDescriptor.decode(id, s.userData()), s.ownedPartitions()));
            topicsByMember.put(id, Set.copyOf(s.topics()));
            topics.addAll(s.topics());
        }
        List<TaskId> tasks = new ArrayList<>();
        for (String topic : topics) {
            Integer partitions = metadata.partitionCountForTopic(topic);
            for (int p = 0; partitions != null && p < partitions; p++) {
                tasks.add(new TaskId(topic, p));
            }
        }
        Map<String, MemberAssignment> plan =
                TaskPlacement.place(members, tasks, replication, topicsByMember, leftForFollowUp);
        Map<TaskId, String> leftOut = new HashMap<>();

        Map<String, String> nodeOf = new HashMap<>();
        members.forEach(m -> nodeOf.put(m.memberId(), m.nodeId()));
        Map<String, MemberAssignment> handedOut = new LinkedHashMap<>();
        int withheld = 0;
        for (String id : subscriptions.keySet()) {
            MemberAssignment planned = plan.get(id);
            List<TaskId> actives = new ArrayList<>(planned.actives().size());
            List<TaskId> replicas = new ArrayList<>(planned.replicas());
            Map<TaskId, List<PeerCopy>> sources = new HashMap<>(planned.sources());
            for (TaskId t : planned.actives()) {
                Set<String> owner = owners.getOrDefault(t, Set.of());
                if (!owner.isEmpty() && !owner.contains(id)) {
                    withheld++; // cooperative: its owner revokes it first, the follow-up rebalance moves it
                    leftOut.put(t, id);
                    if (owner.stream().noneMatch(o -> nodeOf.get(id).equals(nodeOf.get(o)))) {
                        // meanwhile the member runs it as replica: a replica it has stays open (and is
                        // promoted in place by the follow-up), one it lacks starts warming up now
                        replicas.add(t);
                    } else {
                        sources.remove(t); // another unit of its node has the task's files open
                    }
                    continue;
                }
                actives.add(t);
            }
            handedOut.put(id, new MemberAssignment(actives, replicas, sources));
        }
        // encoded once all are planned: each says whether the plan left moves out, for any member
        Map<String, Assignment> out = new LinkedHashMap<>();
        for (Map.Entry<String, MemberAssignment> e : handedOut.entrySet()) {
            List<TopicPartition> partitions = new ArrayList<>(e.getValue().actives().size());
            for (TaskId t : e.getValue().actives()) {
                partitions.add(new TopicPartition(t.topic(), t.partition()));
            }
            out.put(e.getKey(), new Assignment(partitions,
                    AssignmentDescriptor.encode(e.getValue(), withheld > 0, topicsByMember.get(e.getKey()))));
        }
        leftForFollowUp = Map.copyOf(leftOut);
        LOG.info("Task group plan for {} members, {} tasks, replication {}: {} moves left to the follow-up rebalance",
                members.size(), tasks.size(), replication, withheld);
        return new GroupAssignment(out);
    }

    /** The member as it advertised itself, with the partitions Kafka says it owns as active copies. */
    private static MemberInfo withOwned(MemberInfo info, List<TopicPartition> owned) {
        if (owned.isEmpty()) {
            return info;
        }
        Map<TaskId, HeldCopy> held = new LinkedHashMap<>();
        for (HeldCopy h : info.held()) {
            held.merge(h.task(), h, (a, b) -> a.role().compareTo(b.role()) <= 0 ? a : b);
        }
        for (TopicPartition tp : owned) {
            TaskId t = task(tp);
            HeldCopy h = held.get(t);
            if (h == null || h.role() != CopyRole.ACTIVE) {
                held.put(t, new HeldCopy(t, CopyRole.ACTIVE, h == null ? -1 : h.checkpointOffset()));
            }
        }
        return new MemberInfo(info.memberId(), info.nodeId(), info.nodeUrl(), info.unit(), info.budget(),
                new ArrayList<>(held.values()));
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        memberId = metadata.memberId();
        List<TaskId> actives = new ArrayList<>(assignment.partitions().size());
        for (TopicPartition tp : assignment.partitions()) {
            actives.add(task(tp));
        }
        actives.sort(null);
        AssignmentDescriptor.Handed handed = AssignmentDescriptor.read(assignment.userData(), actives);
        holder.planned(handed.plan(), metadata.generationId());
        String due = handed.rebalanceDue(joined, !planned);
        planned = true;
        if (due != null) {
            holder.rebalanceDue(due);
        }
    }

    private static TaskId task(TopicPartition tp) {
        return new TaskId(tp.topic(), tp.partition());
    }
}
