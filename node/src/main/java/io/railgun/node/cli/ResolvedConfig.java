package io.railgun.node.cli;

import io.railgun.node.NodeConfig;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The outcome of {@link ConfigLoader}: the node's configuration, where each value came from, and
 * warnings about settings that have no effect. Immutable.
 *
 * @param config          what the node starts with
 * @param values          every setting's value and origin, in {@code --help} order
 * @param kafkaProperties the merged Kafka client properties with their origins
 * @param warnings        settings that are set but ignored
 */
public record ResolvedConfig(NodeConfig config, List<SettingValue<?>> values, Map<String, RawValue> kafkaProperties,
                             List<String> warnings) {
    /** Kafka properties whose values are masked: passwords, JAAS configs (they embed passwords), keys, secrets. */
    private static final Pattern SECRET_KAFKA_KEY =
            Pattern.compile(".*(password|secret|jaas|token|credential|\\.key$).*", Pattern.CASE_INSENSITIVE);
    static final String MASK = "******";

    public ResolvedConfig {
        values = List.copyOf(values);
        kafkaProperties = Map.copyOf(kafkaProperties);
        warnings = List.copyOf(warnings);
    }

    /** One line per setting, {@code key = value (origin)}, secrets masked: what is logged at start-up. */
    public String describe() {
        var out = new StringBuilder();
        for (SettingValue<?> v : values) {
            line(out, v.setting().key(), v.display(), v.origin());
        }
        kafkaProperties.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            boolean secret = SECRET_KAFKA_KEY.matcher(e.getKey()).matches();
            line(out, StartSettings.KAFKA_PROPERTY_PREFIX + e.getKey(), secret ? MASK : e.getValue().text(),
                    e.getValue().origin());
        });
        return out.toString();
    }

    private static void line(StringBuilder out, String key, String value, String origin) {
        out.append("  ").append(String.format("%-22s", key)).append(" = ").append(value);
        out.append(origin.equals(SettingValue.DEFAULT_ORIGIN) ? " (default)" : " (from " + origin + ")");
        out.append('\n');
    }
}
