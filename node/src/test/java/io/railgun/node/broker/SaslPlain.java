package io.railgun.node.broker;

import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

/** For tests: an embedded broker whose client listener takes SASL/PLAIN, and its users' client settings. */
public final class SaslPlain {
    public static final String USER = "alice";
    public static final String PASSWORD = "alice-secret";

    private SaslPlain() {}

    /** Broker settings: the client listener takes SASL/PLAIN from the broker itself and from {@link #USER}. */
    public static Map<String, String> brokerOverrides() {
        return Map.of(
                "listener.security.protocol.map", "CLIENT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms", "PLAIN",
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                // username/password: the broker's own inter-broker clients; user_*: who may connect
                "listener.name.client.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"broker\" password=\"broker-secret\""
                        + " user_broker=\"broker-secret\" user_" + USER + "=\"" + PASSWORD + "\";");
    }

    /** Client settings to connect as {@code user} with {@code password}. */
    public static Map<String, String> client(String user, String password) {
        return Map.of(
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, "PLAIN",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + user + "\" password=\"" + password + "\";");
    }
}
