package io.railgun.bench.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;

/**
 * The independent checker: compares every reply that got a 200 with the {@link BruteForceOracle}'s
 * recomputation from the input topic, and the topic with the generator's own log.
 * <ul>
 *   <li><b>lost</b>: acknowledged events (a 200 reply) that are not in the topic;</li>
 *   <li><b>counted twice</b>: events with more than one 200 reply saying they were counted (neither
 *       {@code duplicate} nor {@code dropped}), and 200 replies whose flags or values equal none of
 *       the recomputed answers of the records of their id (a reply maps to one record; several
 *       replies of one id, to distinct records);</li>
 *   <li><b>not as sent</b>: topic records whose id the generator never sent, or whose card, time
 *       or amount differ from what it sent, or that sit in another partition than their card's
 *       ({@code toPositive(murmur2(card)) % partitions}, docs/semantics.md): a card spread over two
 *       tasks would have two windows, each recomputed "exactly" from its own partition.</li>
 * </ul>
 * Any of them non-zero, or no 200 reply at all to check, fails the run.
 */
final class ExactnessChecker {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHOWN = 20;

    private final String sumMetric;
    private final String countMetric;
    private final String allMetric;

    ExactnessChecker(String sumMetric, String countMetric, String allMetric) {
        this.sumMetric = sumMetric;
        this.countMetric = countMetric;
        this.allMetric = allMetric;
    }

    /** The outcome: counts and up to {@value #SHOWN} descriptions of offending events per kind. */
    record Result(int checkedReplies, int duplicateReplies, int lateReplies, int inputEvents, int lost, int countedTwice, int notAsSent,
                  int writtenMoreThanOnce, int unacknowledgedInTopic, List<String> offenders) {
        boolean exact() {
            return checkedReplies > 0 && lost == 0 && countedTwice == 0 && notAsSent == 0;
        }
    }

    /** @param partitions the input topic's partition count */
    Result check(List<SentEvent> sent, List<Attempt> attempts, List<Expected> expected, int partitions) {
        List<String> offenders = new ArrayList<>();
        Map<String, SentEvent> sentById = new HashMap<>();
        for (SentEvent e : sent) {
            sentById.put(e.id(), e);
        }
        Map<String, List<Expected>> byId = new HashMap<>();
        int notAsSent = 0;
        for (Expected x : expected) {
            InputRecord r = x.record();
            byId.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(x);
            SentEvent s = sentById.get(r.id());
            if (s == null || !s.card().equals(r.card()) || s.ts() != r.ts() || s.amountQuarters() != r.amountQuarters()) {
                notAsSent++;
                note(offenders, "not as sent: " + r + " (sent: " + s + ")");
            } else if (r.partition() != partitionOf(r.card(), partitions)) {
                notAsSent++;
                note(offenders, "not as sent: " + r + " is not in its card's partition " + partitionOf(r.card(), partitions));
            }
        }
        int moreThanOnce = (int) byId.values().stream().filter(l -> l.size() > 1).count();

        Set<String> acknowledged = new HashSet<>();
        Set<String> lostIds = new HashSet<>();
        Map<String, Integer> countedReplies = new HashMap<>();
        Set<Expected> used = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Set<String> twice = new HashSet<>();
        int checked = 0;
        int duplicates = 0;
        int late = 0;
        for (Attempt a : attempts) {
            if (a.status() != 200) {
                continue;
            }
            checked++;
            String id = sent.get(a.event()).id();
            acknowledged.add(id);
            JsonNode reply;
            try {
                reply = JSON.readTree(a.body());
            } catch (Exception e) {
                twice.add(id);
                note(offenders, "unreadable 200 reply to " + id + ": " + a.body());
                continue;
            }
            List<Expected> candidates = byId.getOrDefault(id, List.of());
            if (candidates.isEmpty()) {
                lostIds.add(id);
                note(offenders, "lost: " + id + " got 200 (" + a.body() + ") but is not in the input topic");
                continue;
            }
            if (!reply.path("duplicate").asBoolean(false) && reply.path("dropped").isMissingNode()
                    && countedReplies.merge(id, 1, Integer::sum) > 1) {
                twice.add(id);
                note(offenders, "counted twice: " + id + " got a second 200 reply without \"duplicate\": " + a.body());
            }
            Expected match = null;
            for (Expected x : candidates) {
                if (!used.contains(x) && matches(reply, id, x)) {
                    match = x;
                    break;
                }
            }
            if (match == null) {
                twice.add(id);
                note(offenders, "wrong value: " + id + " (attempt " + a.attempt() + " to " + a.node() + ") got " + a.body()
                        + ", recomputed: " + candidates);
            } else {
                used.add(match);
                duplicates += match.duplicate() ? 1 : 0;
                late += match.late() ? 1 : 0;
            }
        }
        int unacknowledgedInTopic = 0;
        for (String id : byId.keySet()) {
            if (!acknowledged.contains(id)) {
                unacknowledgedInTopic++;
            }
        }
        return new Result(checked, duplicates, late, expected.size(), lostIds.size(), twice.size(), notAsSent, moreThanOnce,
                unacknowledgedInTopic, offenders);
    }

    /** Kafka's default partitioner on the key's UTF-8 bytes, as the node routes events. */
    static int partitionOf(String card, int partitions) {
        return Utils.toPositive(Utils.murmur2(card.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private boolean matches(JsonNode reply, String id, Expected x) {
        if (!id.equals(reply.path("eventId").asText(null))) {
            return false;
        }
        if (reply.path("duplicate").asBoolean(false) != x.duplicate()) {
            return false;
        }
        boolean dropped = "late".equals(reply.path("dropped").asText(null));
        if (dropped != x.late() || !dropped && !reply.path("dropped").isMissingNode()) {
            return false;
        }
        JsonNode metrics = reply.path("metrics");
        return windowMatches(metrics, x) && countMatches(metrics.get(allMetric), x.allAbsent(), x.countAll());
    }

    private boolean windowMatches(JsonNode metrics, Expected x) {
        JsonNode sum = metrics.get(sumMetric);
        if (x.windowAbsent()) {
            return sum == null && metrics.get(countMetric) == null;
        }
        boolean sumOk = x.sumQuarters() == null ? sum != null && sum.isNull()
                : sum != null && sum.isNumber() && sum.asDouble() * 4 == x.sumQuarters();
        return sumOk && countMatches(metrics.get(countMetric), false, x.count());
    }

    private static boolean countMatches(JsonNode value, boolean absent, long expected) {
        if (absent) {
            return value == null;
        }
        return value != null && value.isIntegralNumber() && value.asLong() == expected;
    }

    private static void note(List<String> offenders, String line) {
        if (offenders.size() < SHOWN) {
            offenders.add(line);
        }
    }
}
