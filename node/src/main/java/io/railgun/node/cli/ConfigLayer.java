package io.railgun.node.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What one configuration source (the flags, the environment, the config file) sets: setting key →
 * raw text, and Kafka client properties. Blank values count as not set, so that {@code RAILGUN_KAFKA=}
 * falls through to the next source, except for Kafka properties, where an empty value is meaningful
 * ({@code ssl.endpoint.identification.algorithm=}). Immutable once built.
 *
 * @param values          setting key → raw value
 * @param kafkaProperties Kafka client property → raw value
 */
public record ConfigLayer(Map<String, RawValue> values, Map<String, RawValue> kafkaProperties) {
    private static final Pattern KAFKA_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    public static final ConfigLayer EMPTY = new ConfigLayer(Map.of(), Map.of());

    public ConfigLayer {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        kafkaProperties = Collections.unmodifiableMap(new LinkedHashMap<>(kafkaProperties));
    }

    /** Collects one source's values, checking keys and conflicts as they come. Single-threaded. */
    public static final class Builder {
        private final List<Setting<?>> settings;
        private final Map<String, RawValue> values = new LinkedHashMap<>();
        private final Map<String, RawValue> kafkaProperties = new LinkedHashMap<>();

        /** @param settings the settings this source may set */
        public Builder(List<Setting<?>> settings) {
            this.settings = settings;
        }

        /**
         * Sets the setting named {@code key} (a file key or a flag name without dashes, also
         * {@code admin-token-file} and {@code kafka-property.KEY}).
         *
         * @return false when {@code key} names no setting of this source
         */
        public boolean putKey(String key, String text, String origin) {
            if (key.startsWith(StartSettings.KAFKA_PROPERTY_PREFIX)) {
                putKafkaProperty(key.substring(StartSettings.KAFKA_PROPERTY_PREFIX.length()), text, origin);
                return true;
            }
            for (Setting<?> s : settings) {
                if (s.key().equals(key)) {
                    put(s, text, origin, false);
                    return true;
                }
                if (s.secret() && s.fileKey().equals(key)) {
                    put(s, text, origin, true);
                    return true;
                }
            }
            return false;
        }

        /** Sets {@code setting}; {@code secretFile}: {@code text} is the path of a file holding the value. */
        public Builder put(Setting<?> setting, String text, String origin, boolean secretFile) {
            String value = text == null ? "" : text.strip();
            if (value.isEmpty()) {
                return this;
            }
            RawValue earlier = values.get(setting.key());
            if (earlier != null) {
                throw new ConfigException(ConfigException.CONFLICT, "both " + earlier.origin() + " and " + origin
                        + " are set: give " + setting.key() + " once, as the value or as a file, not both");
            }
            values.put(setting.key(), new RawValue(value, origin, secretFile));
            return this;
        }

        /** Sets a Kafka client property; a later value of the same key replaces an earlier one. */
        public Builder putKafkaProperty(String key, String text, String origin) {
            if (!KAFKA_KEY.matcher(key).matches()) {
                throw new ConfigException(ConfigException.INVALID_VALUE, origin + ": '" + key
                        + "' is not a Kafka property name (letters, digits, '.', '_', '-', e.g. security.protocol)");
            }
            if (key.equals("bootstrap.servers")) {
                throw new ConfigException(ConfigException.CONFLICT, origin + ": set the bootstrap servers with "
                        + StartSettings.KAFKA.flag() + " (" + StartSettings.KAFKA.envVar() + ", file key '"
                        + StartSettings.KAFKA.key() + "'), not as a Kafka property");
            }
            kafkaProperties.put(key, new RawValue(text == null ? "" : text.strip(), origin, false));
            return this;
        }

        public ConfigLayer build() {
            return new ConfigLayer(values, kafkaProperties);
        }
    }
}
