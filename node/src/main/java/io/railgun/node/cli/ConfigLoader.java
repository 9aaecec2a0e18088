package io.railgun.node.cli;

import io.railgun.node.NodeConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resolves the configuration of {@code railgun start}: flags, then {@code RAILGUN_*} environment
 * variables, then the config file ({@code --config} or {@code RAILGUN_CONFIG}), then the defaults of
 * {@link NodeConfig#defaults()}; the first source that sets a setting wins. Kafka client properties
 * merge key by key with the same precedence. Starts nothing and touches no global state; the only
 * I/O is reading the config file and secret files. Any thread.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /**
     * @param startArgs the arguments after {@code start}
     * @param env       the environment, e.g. {@link System#getenv()}
     * @throws ConfigException for an unknown option, key or variable, a bad value or an unreadable file
     */
    public static ResolvedConfig resolve(String[] startArgs, Map<String, String> env) {
        CommandSpec spec = CommandSpecs.start(CommandSpec.create());
        CommandLine.ParseResult parsed;
        try {
            parsed = new CommandLine(spec).setExpandAtFiles(false).parseArgs(startArgs);
        } catch (CommandLine.ParameterException e) {
            throw new ConfigException(ConfigException.INVALID_VALUE, e.getMessage());
        }
        return resolve(CommandSpecs.flags(parsed, CommandSpecs.startFlagSettings()), env);
    }

    /** Resolves from parsed flags and the environment, reading the config file they name, if any. */
    public static ResolvedConfig resolve(ConfigLayer flags, Map<String, String> env) {
        ConfigLayer envLayer = Environment.forStart(env);
        SettingValue<Path> config = SettingValue.pick(StartSettings.CONFIG, List.of(flags, envLayer));
        ConfigLayer file = config.value() == null ? ConfigLayer.EMPTY : ConfigFile.read(config.value(), config.origin());
        return resolve(flags, envLayer, file, config);
    }

    /**
     * The pure core: the three layers, highest precedence first, into a {@link NodeConfig}.
     *
     * @param config where the config file came from (shown in the logged configuration), or null
     */
    public static ResolvedConfig resolve(ConfigLayer flags, ConfigLayer env, ConfigLayer file,
                                         SettingValue<Path> config) {
        List<ConfigLayer> layers = List.of(flags, env, file);
        Map<Setting<?>, SettingValue<?>> values = new LinkedHashMap<>();
        for (Setting<?> s : StartSettings.ALL) {
            values.put(s, SettingValue.pick(s, layers));
        }
        var v = new Values(values);

        // Kafka properties merge key by key: the file's, overridden by the environment's, by the flags'.
        Map<String, RawValue> kafkaProperties = new TreeMap<>();
        kafkaProperties.putAll(file.kafkaProperties());
        kafkaProperties.putAll(env.kafkaProperties());
        kafkaProperties.putAll(flags.kafkaProperties());
        Map<String, String> kafkaValues = new TreeMap<>();
        kafkaProperties.forEach((key, raw) -> kafkaValues.put(key, raw.text()));

        SettingValue<?> password = values.get(StartSettings.TLS_KEYSTORE_PASSWORD);
        if (v.get(StartSettings.TLS_KEYSTORE) == null && !password.isDefault()) {
            throw new ConfigException(ConfigException.CONFLICT, password.origin()
                    + " is set but tls-keystore is not: give the PKCS12 keystore with --tls-keystore FILE");
        }
        List<String> warnings = new ArrayList<>();
        SettingValue<?> brokerPort = values.get(StartSettings.BROKER_PORT);
        if (v.get(StartSettings.KAFKA) != null && !brokerPort.isDefault()) {
            warnings.add(brokerPort.origin() + " is ignored: with kafka set, the node starts no embedded broker");
        }

        NodeConfig node;
        try {
            node = new NodeConfig(v.get(StartSettings.HOST), v.get(StartSettings.PORT), v.get(StartSettings.DATA_DIR),
                    v.get(StartSettings.KAFKA), v.get(StartSettings.BROKER_PORT), v.get(StartSettings.NODE_ID),
                    v.get(StartSettings.PROCESSORS), v.get(StartSettings.REPLICATION),
                    v.get(StartSettings.INGEST_TOKEN), v.get(StartSettings.ADMIN_TOKEN),
                    v.get(StartSettings.TLS_KEYSTORE), v.get(StartSettings.TLS_KEYSTORE_PASSWORD), kafkaValues,
                    v.get(StartSettings.MAX_BODY_BYTES), v.get(StartSettings.MAX_BATCH_EVENTS),
                    v.get(StartSettings.REQUEST_TIMEOUT), v.get(StartSettings.CHECKPOINT_INTERVAL),
                    v.get(StartSettings.HOT_KEYS), v.get(StartSettings.MIN_DEDUP_HORIZON),
                    v.get(StartSettings.MAX_CONNECTIONS), v.get(StartSettings.MAX_CONNECTIONS_PER_ADDRESS),
                    v.get(StartSettings.IDLE_TIMEOUT), v.get(StartSettings.HEADER_TIMEOUT),
                    v.get(StartSettings.BODY_TIMEOUT), v.get(StartSettings.RECOVERY_RATE),
                    v.get(StartSettings.TOPIC_REPLICATION), v.get(StartSettings.INPUT_RETENTION),
                    v.get(StartSettings.STATE_MEMORY));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigException.INVALID_VALUE, e.getMessage());
        }
        List<SettingValue<?>> shown = new ArrayList<>();
        if (config != null && config.value() != null) {
            shown.add(config);
        }
        shown.addAll(values.values());
        return new ResolvedConfig(node, shown, kafkaProperties, warnings);
    }

    /** Typed access to the resolved values. */
    private record Values(Map<Setting<?>, SettingValue<?>> values) {
        @SuppressWarnings("unchecked")
        <T> T get(Setting<T> setting) {
            return ((SettingValue<T>) values.get(setting)).value();
        }
    }
}
