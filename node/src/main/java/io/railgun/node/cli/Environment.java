package io.railgun.node.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the {@code RAILGUN_*} environment variables into a {@link ConfigLayer}. Every such variable
 * must be known to some command, so that a typo fails at start-up instead of being ignored; each
 * command reads its own and leaves the others' (a node and a broker may share one environment).
 * Kafka client properties: {@code RAILGUN_KAFKA_PROPERTY_SASL_MECHANISM} is
 * {@code sasl.mechanism} (the rest of the name lower-cased, {@code _} becoming {@code .}).
 */
public final class Environment {
    /** Read by the {@code ./railgun} script, not by the JVM. */
    public static final String JAVA_OPTS = "RAILGUN_JAVA_OPTS";
    private static final String PREFIX = "RAILGUN_";

    private Environment() {
    }

    /** The variables of {@code start}: its settings, {@code RAILGUN_CONFIG} and the Kafka properties. */
    public static ConfigLayer forStart(Map<String, String> env) {
        List<Setting<?>> settings = new ArrayList<>(StartSettings.ALL);
        settings.add(StartSettings.CONFIG);
        return read(env, settings, true);
    }

    public static ConfigLayer forBroker(Map<String, String> env) {
        return read(env, BrokerSettings.ALL, false);
    }

    /**
     * The variables of the client commands: those of {@code start} (host, port, tokens, TLS, config
     * file; the ones a client has no use for are read and ignored) and {@code RAILGUN_URL}. Kafka
     * client properties are left alone.
     */
    public static ConfigLayer forClient(Map<String, String> env) {
        List<Setting<?>> settings = new ArrayList<>(StartSettings.ALL);
        settings.add(StartSettings.CONFIG);
        settings.addAll(ClientSettings.ALL);
        return read(env, settings, false);
    }

    /** Every variable some command reads, for error messages and docs. */
    public static Set<String> knownNames() {
        Set<String> names = new TreeSet<>();
        for (Setting<?> s : allSettings()) {
            names.add(s.envVar());
            if (s.secret()) {
                names.add(s.fileEnvVar());
            }
        }
        names.add(JAVA_OPTS);
        return names;
    }

    private static ConfigLayer read(Map<String, String> env, List<Setting<?>> settings, boolean kafkaProperties) {
        var layer = new ConfigLayer.Builder(settings);
        Set<String> known = knownNames();
        List<String> unknown = new ArrayList<>();
        for (var e : new TreeSet<>(env.keySet())) {
            if (!e.startsWith(PREFIX)) {
                continue;
            }
            String value = env.get(e);
            Setting<?> own = find(settings, e, false);
            Setting<?> ownFile = find(settings, e, true);
            if (own != null) {
                layer.put(own, value, e, false);
            } else if (ownFile != null) {
                layer.put(ownFile, value, e, true);
            } else if (e.startsWith(StartSettings.KAFKA_PROPERTY_ENV_PREFIX)) {
                if (kafkaProperties) {
                    String key = e.substring(StartSettings.KAFKA_PROPERTY_ENV_PREFIX.length())
                            .toLowerCase(Locale.ROOT).replace('_', '.');
                    layer.putKafkaProperty(key, value, e);
                }
            } else if (!known.contains(e)) {
                unknown.add(e);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException(ConfigException.UNKNOWN_KEY, Suggestions.unknown(
                    unknown.size() == 1 ? "environment variable" : "environment variables", unknown, known, "")
                    + "; Kafka client properties are " + StartSettings.KAFKA_PROPERTY_ENV_PREFIX
                    + "<PROPERTY> (e.g. RAILGUN_KAFKA_PROPERTY_SECURITY_PROTOCOL)");
        }
        return layer.build();
    }

    private static Setting<?> find(List<Setting<?>> settings, String name, boolean fileVariant) {
        for (Setting<?> s : settings) {
            if (!fileVariant && s.envVar().equals(name) || fileVariant && s.secret() && s.fileEnvVar().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static List<Setting<?>> allSettings() {
        List<Setting<?>> all = new ArrayList<>(StartSettings.ALL);
        all.add(StartSettings.CONFIG);
        all.addAll(BrokerSettings.ALL);
        all.addAll(ClientSettings.ALL);
        return all;
    }
}
