package io.railgun.node.cluster;

import java.util.List;

/**
 * What one node says about itself on the cluster topic ({@link NodeStatusDescriptor} is its wire
 * format): an immutable value.
 *
 * @param nodeId      the node's id ({@code --node-id}), also the record's key
 * @param apiUrl      the base URL of its HTTP API
 * @param startedMs   when it started, in ms since the epoch
 * @param publishedMs when it wrote this status, in ms since the epoch (its own clock)
 * @param units       its processor units
 * @param copies      the task copies it holds
 */
public record NodeStatus(String nodeId, String apiUrl, long startedMs, long publishedMs, int units,
        List<CopyStatus> copies) {
    public NodeStatus {
        copies = List.copyOf(copies);
    }
}
