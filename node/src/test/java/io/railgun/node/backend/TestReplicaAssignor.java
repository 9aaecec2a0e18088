package io.railgun.node.backend;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.messaging.KafkaSettings;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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

/**
 * A small task-group assignor for the processor units' tests until the real one (seed 000 §4.2)
 * is there: cooperative; an active stays with the member that owns it, else goes to a member that
 * holds it as replica, else to the least loaded; then {@code replication - 1} replicas on members
 * of other nodes, those holding it first. Subscriptions carry the member's node id and replicas;
 * assignments carry the member's replicas, handed to its {@link AssignmentHolder#planned}.
 * A consumer without a holder (not a unit) is a plain sticky member without replicas.
 */
public final class TestReplicaAssignor implements ConsumerPartitionAssignor, Configurable {
    private AssignmentHolder holder;
    private int replication = 1;

    @Override
    public void configure(Map<String, ?> configs) {
        holder = (AssignmentHolder) configs.get(AssignmentHolder.CONFIG_KEY);
        Object r = configs.get(KafkaSettings.REPLICATION_CONFIG);
        replication = r == null ? 1 : Integer.parseInt(r.toString());
    }

    @Override
    public String name() {
        return "railgun-test-replicas";
    }

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE);
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        if (holder == null) {
            return null;
        }
        MemberInfo me = holder.describe("");
        List<TaskId> replicas = me.held().stream().filter(h -> h.role() == CopyRole.REPLICA).map(HeldCopy::task).toList();
        return ByteBuffer.wrap(write(out -> {
            out.writeInt(replication);
            out.writeUTF(me.nodeId());
            writeTasks(out, replicas);
        }));
    }

    private record Member(String id, String node, int copies, Set<TopicPartition> replicas, Subscription sub) {}

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription group) {
        Map<String, Member> members = new TreeMap<>();
        int copies = 1;
        for (Map.Entry<String, Subscription> e : group.groupSubscription().entrySet()) {
            Member m = member(e.getKey(), e.getValue());
            members.put(m.id, m);
            copies = Math.max(copies, m.copies);
        }
        Set<TopicPartition> tasks = new TreeSet<>(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
        Map<TopicPartition, String> owner = new HashMap<>();
        for (Member m : members.values()) {
            for (String t : m.sub.topics()) {
                Integer n = metadata.partitionCountForTopic(t);
                for (int p = 0; n != null && p < n; p++) {
                    tasks.add(new TopicPartition(t, p));
                }
            }
            m.sub.ownedPartitions().forEach(tp -> owner.putIfAbsent(tp, m.id));
        }
        Map<String, Integer> load = new HashMap<>();
        Map<String, List<TopicPartition>> actives = new HashMap<>();
        Map<String, List<TaskId>> replicas = new HashMap<>();
        for (Member m : members.values()) {
            load.put(m.id, 0);
            actives.put(m.id, new ArrayList<>());
            replicas.put(m.id, new ArrayList<>());
        }
        for (TopicPartition tp : tasks) {
            List<Member> eligible = members.values().stream().filter(m -> m.sub.topics().contains(tp.topic())).toList();
            String owned = owner.get(tp);
            Member active;
            if (owned != null) {
                active = eligible.stream().filter(m -> m.id.equals(owned)).findFirst().orElse(null);
                if (active == null) {
                    continue; // its owner must give it up first (cooperative)
                }
            } else {
                active = best(eligible, tp, Set.of(), load);
            }
            if (active == null) {
                continue;
            }
            actives.get(active.id).add(tp);
            load.merge(active.id, 1, Integer::sum);
            Set<String> nodes = new HashSet<>(Set.of(active.node));
            for (int k = 1; k < copies; k++) {
                Member r = best(eligible, tp, nodes, load);
                if (r == null) {
                    break;
                }
                replicas.get(r.id).add(new TaskId(tp.topic(), tp.partition()));
                load.merge(r.id, 1, Integer::sum);
                nodes.add(r.node);
            }
        }
        Map<String, Assignment> out = new HashMap<>();
        for (Member m : members.values()) {
            List<TaskId> r = replicas.get(m.id);
            out.put(m.id, new Assignment(actives.get(m.id), ByteBuffer.wrap(write(o -> writeTasks(o, r)))));
        }
        return new GroupAssignment(out);
    }

    /** A member of a node not in {@code nodes}: one holding a replica of the task first, then the least loaded. */
    private static Member best(List<Member> eligible, TopicPartition tp, Set<String> nodes, Map<String, Integer> load) {
        Member best = null;
        for (Member m : eligible) {
            if (nodes.contains(m.node)) {
                continue;
            }
            if (best == null || m.replicas.contains(tp) && !best.replicas.contains(tp)
                    || m.replicas.contains(tp) == best.replicas.contains(tp) && load.get(m.id) < load.get(best.id)) {
                best = m;
            }
        }
        return best;
    }

    private static Member member(String id, Subscription s) {
        if (s.userData() == null || !s.userData().hasRemaining()) {
            return new Member(id, id, 1, Set.of(), s);
        }
        ByteBuffer b = s.userData().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
            int copies = in.readInt();
            String node = in.readUTF();
            Set<TopicPartition> replicas = new HashSet<>();
            for (TaskId t : readTasks(in)) {
                replicas.add(new TopicPartition(t.topic(), t.partition()));
            }
            return new Member(id, node, copies, replicas, s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        if (holder == null) {
            return;
        }
        List<TaskId> replicas = List.of();
        if (assignment.userData() != null && assignment.userData().hasRemaining()) {
            ByteBuffer b = assignment.userData().duplicate();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
                replicas = readTasks(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        List<TaskId> actives = assignment.partitions().stream().map(tp -> new TaskId(tp.topic(), tp.partition())).toList();
        holder.planned(new MemberAssignment(actives, replicas, Map.of()), metadata.generationId());
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeTasks(DataOutputStream out, List<TaskId> tasks) throws IOException {
        out.writeInt(tasks.size());
        for (TaskId t : tasks) {
            out.writeUTF(t.topic());
            out.writeInt(t.partition());
        }
    }

    private static List<TaskId> readTasks(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<TaskId> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(new TaskId(in.readUTF(), in.readInt()));
        }
        return tasks;
    }
}
