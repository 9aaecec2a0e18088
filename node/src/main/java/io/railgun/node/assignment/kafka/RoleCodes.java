package io.railgun.node.assignment.kafka;

import io.railgun.node.assignment.CopyRole;

/** The one-byte codes of {@link CopyRole} in assignor records: fixed, not the enum's ordinals. Stateless. */
final class RoleCodes {
    private RoleCodes() {}

    static byte code(CopyRole role) {
        return switch (role) {
            case ACTIVE -> 0;
            case REPLICA -> 1;
            case STALE -> 2;
        };
    }

    static CopyRole role(byte code) {
        return switch (code) {
            case 0 -> CopyRole.ACTIVE;
            case 1 -> CopyRole.REPLICA;
            case 2 -> CopyRole.STALE;
            default -> throw new IllegalArgumentException("unknown copy role code " + code);
        };
    }
}
