package io.railgun.node.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the options of {@code start} and {@code broker} from their {@link Setting}s, so that
 * {@code --help} shows every setting with its default and environment variable, and turns a parse
 * result back into the flags' {@link ConfigLayer}. Every option is a string: parsing and validation
 * happen once, in {@link SettingValue}, whatever the source.
 */
final class CommandSpecs {
    static final String PRECEDENCE = "Precedence: flags > RAILGUN_* environment variables > --config file > defaults.";

    private CommandSpecs() {
    }

    /** Adds the options of {@code start} to {@code spec}. */
    static CommandSpec start(CommandSpec spec) {
        spec.name("start");
        usage(spec, "Start a node: HTTP API, processor units and messaging over Kafka (embedded broker unless --kafka).",
                "A single node with an embedded Kafka broker (KRaft) and all data under ./data by default;"
                        + " with --kafka, a node of a cluster.");
        for (Setting<?> s : StartSettings.ALL) {
            spec.addOption(option(s));
            if (s.secret()) {
                spec.addOption(fileOption(s));
            }
        }
        spec.addOption(OptionSpec.builder("--" + StartSettings.KAFKA_PROPERTY)
                .paramLabel("KEY=VALUE")
                .type(List.class)
                .auxiliaryTypes(String.class)
                .description("Kafka client property for every Kafka client of the node, repeatable"
                        + " (security.protocol, sasl.*, ssl.* ...). File key: kafka-property.KEY"
                        + " (in YAML also a map under kafka-property). Env: RAILGUN_KAFKA_PROPERTY_KEY"
                        + " with KEY upper-cased and dots as underscores, e.g. RAILGUN_KAFKA_PROPERTY_SASL_MECHANISM"
                        + " for sasl.mechanism.")
                .build());
        spec.addOption(option(StartSettings.CONFIG));
        spec.usageMessage().footer("", PRECEDENCE,
                "Config file keys are the long option names without dashes (port, data-dir ...).",
                "Secrets (tokens, passwords) are masked in the logged configuration. See docs/configuration.md.");
        return spec;
    }

    /** Adds the options of {@code broker} to {@code spec}. */
    static CommandSpec broker(CommandSpec spec) {
        spec.name("broker");
        usage(spec, "Start a standalone local Kafka broker (KRaft) for development clusters and tests.",
                "Listens on 127.0.0.1 only. Nodes join it with: railgun start --kafka 127.0.0.1:PORT.");
        for (Setting<?> s : BrokerSettings.ALL) {
            spec.addOption(option(s));
        }
        spec.usageMessage().footer("", "Precedence: flags > environment variables > defaults.");
        return spec;
    }

    /** The flags' layer: what the command line set, with kafka-property entries split at the first '='. */
    static ConfigLayer flags(ParseResult parsed, List<Setting<?>> settings) {
        var layer = new ConfigLayer.Builder(settings);
        for (OptionSpec o : parsed.matchedOptions()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            String flag = o.longestName();
            String key = flag.substring(2);
            if (key.equals(StartSettings.KAFKA_PROPERTY)) {
                List<String> entries = o.getValue();
                for (String entry : entries) {
                    int eq = entry.indexOf('=');
                    if (eq < 1) {
                        throw new ConfigException(ConfigException.INVALID_VALUE, flag
                                + " expects KEY=VALUE, e.g. " + flag + " security.protocol=SASL_SSL");
                    }
                    layer.putKafkaProperty(entry.substring(0, eq).strip(), entry.substring(eq + 1), flag);
                }
            } else if (!layer.putKey(key, o.getValue(), flag)) {
                throw new IllegalStateException("option " + flag + " has no setting");
            }
        }
        return layer.build();
    }

    /** The settings {@code start} reads from flags and the environment: its own and {@code config}. */
    static List<Setting<?>> startFlagSettings() {
        List<Setting<?>> settings = new ArrayList<>(StartSettings.ALL);
        settings.add(StartSettings.CONFIG);
        return settings;
    }

    private static void usage(CommandSpec spec, String header, String description) {
        spec.mixinStandardHelpOptions(true);
        spec.versionProvider(new VersionProvider());
        spec.usageMessage()
                .header(header)
                .description(description)
                .abbreviateSynopsis(true)
                .sortOptions(false)
                .width(100)
                .autoWidth(true)
                .longOptionsMaxWidth(40)
                .optionListHeading("%nOptions:%n");
    }

    private static OptionSpec option(Setting<?> s) {
        OptionSpec.Builder b = OptionSpec.builder(s.flag())
                .paramLabel(s.paramLabel())
                .type(String.class)
                // picocli formats descriptions (String.format): a literal % must reach it as %%
                .description((s.description() + ". Default: " + s.defaultDisplay() + ". Env: " + s.envVar() + ".")
                        .replace("%", "%%"));
        if (s.type() == ValueTypes.BOOLEAN) {
            // --sasl alone means --sasl=true
            b.arity("0..1").fallbackValue("true");
        }
        return b.build();
    }

    private static OptionSpec fileOption(Setting<?> s) {
        return OptionSpec.builder("--" + s.fileKey())
                .paramLabel("FILE")
                .type(String.class)
                .description("Read " + s.key() + " from FILE (surrounding whitespace removed). Env: "
                        + s.fileEnvVar() + ".")
                .build();
    }
}
