package io.railgun.node.cli.client;

import io.railgun.node.cli.ClientSettings;
import io.railgun.node.cli.ConfigException;
import io.railgun.node.cli.ConfigFile;
import io.railgun.node.cli.ConfigLayer;
import io.railgun.node.cli.Environment;
import io.railgun.node.cli.Setting;
import io.railgun.node.cli.SettingValue;
import io.railgun.node.cli.StartSettings;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options that say where the node is, shared by every client command, and their resolution
 * into a {@link NodeTarget} with the same machinery and precedence as {@code railgun start}: flags,
 * then {@code RAILGUN_*} variables, then the config file ({@code --config}, {@code RAILGUN_CONFIG}),
 * then the defaults. So a shell (or a config file) that starts a node also reaches it:
 * <ul>
 *   <li>{@code --url} ({@code RAILGUN_URL}) gives the address whole; otherwise it is
 *       {@code http://HOST:PORT} from {@code host} and {@code port} ({@code 0.0.0.0} and {@code ::}
 *       become the loopback address), {@code https} when {@code tls-keystore} is set;</li>
 *   <li>the token is {@code admin-token} when set, else {@code ingest-token} (each also from a
 *       {@code -file});</li>
 *   <li>with {@code tls-keystore}, its certificates are trusted (the node's self-signed one);</li>
 *   <li>the request timeout is the node's {@code request-timeout} plus 10 s, so that the node's own
 *       503 comes first.</li>
 * </ul>
 * A URL and a host or port set in the same source (both as flags, say) are a conflict; otherwise
 * the higher source wins. Stateless.
 */
public final class NodeOptions {
    /** Headroom over the node's request timeout, after which it answers 503 itself. */
    static final Duration TIMEOUT_MARGIN = Duration.ofSeconds(10);

    private static final List<Setting<?>> SETTINGS = List.of(ClientSettings.URL, StartSettings.HOST, StartSettings.PORT,
            StartSettings.ADMIN_TOKEN, StartSettings.INGEST_TOKEN, StartSettings.TLS_KEYSTORE,
            StartSettings.TLS_KEYSTORE_PASSWORD, StartSettings.CONFIG);
    private static final Map<String, String> DESCRIPTIONS = Map.of(
            "host", "The node's host (0.0.0.0 means this machine)",
            "port", "The node's HTTP port",
            "admin-token", "Bearer token sent with every request (the node's admin token)",
            "ingest-token", "Bearer token sent when no admin token is set (enough for send and read)",
            "tls-keystore", "The node's PKCS12 keystore: use https and trust its certificate",
            "tls-keystore-password", "Password of --tls-keystore");
    private static final Set<String> ADDRESS_KEYS = Set.of(StartSettings.HOST.key(), StartSettings.PORT.key(),
            StartSettings.TLS_KEYSTORE.key());

    private NodeOptions() {
    }

    /** Adds the node options to a command, after its own, under their own heading. */
    public static void addTo(CommandSpec spec) {
        ArgGroupSpec.Builder group = ArgGroupSpec.builder().exclusive(false).multiplicity("0..1")
                .heading("%nWhere the node is (as for 'railgun start'):%n");
        for (Setting<?> s : SETTINGS) {
            String description = DESCRIPTIONS.getOrDefault(s.key(), s.description());
            String defaults = s == StartSettings.CONFIG || s.defaultValue() == null && s.defaultText() == null
                    ? "" : " Default: " + s.defaultDisplay() + ".";
            group.addArg(OptionSpec.builder(s.flag()).paramLabel(s.paramLabel()).type(String.class)
                    .description(description + "." + defaults + " Env: " + s.envVar() + ".").build());
            if (s.secret()) {
                group.addArg(OptionSpec.builder("--" + s.fileKey()).paramLabel("FILE").type(String.class)
                        .description("Read " + s.key() + " from FILE. Env: " + s.fileEnvVar() + ".").build());
            }
        }
        spec.addArgGroup(group.build());
    }

    /**
     * The target from the parsed node options, the environment and the config file they name.
     *
     * @throws ConfigException for a bad value, an unknown variable or config key, or a conflict
     */
    public static NodeTarget resolve(ParseResult parsed, Map<String, String> env) {
        var builder = new ConfigLayer.Builder(SETTINGS);
        for (OptionSpec o : parsed.matchedOptions()) {
            String key = o.longestName().substring(2);
            if (o.getValue() instanceof String value) {
                builder.putKey(key, value, o.longestName());
            }
        }
        ConfigLayer flags = builder.build();
        ConfigLayer environment = Environment.forClient(env);
        SettingValue<Path> config = SettingValue.pick(StartSettings.CONFIG, List.of(flags, environment));
        ConfigLayer file = config.value() == null ? ConfigLayer.EMPTY
                : ConfigFile.read(config.value(), config.origin());
        List<ConfigLayer> layers = List.of(flags, environment, file);

        SettingValue<Path> keystore = SettingValue.pick(StartSettings.TLS_KEYSTORE, layers);
        SettingValue<URI> url = SettingValue.pick(ClientSettings.URL, layers);
        URI uri;
        String origin;
        int urlRank = rank(layers, Set.of(ClientSettings.URL.key()));
        int addressRank = rank(layers, ADDRESS_KEYS);
        if (url.value() != null && urlRank == addressRank) {
            throw new ConfigException(ConfigException.CONFLICT, url.origin() + " and " + addressOrigin(layers)
                    + " are both set: give the node's address once, as --url URL or as --host/--port");
        }
        if (url.value() != null && urlRank < addressRank) {
            uri = url.value();
            origin = "from " + url.origin();
        } else {
            SettingValue<String> host = SettingValue.pick(StartSettings.HOST, layers);
            SettingValue<Integer> port = SettingValue.pick(StartSettings.PORT, layers);
            if (port.value() == 0) {
                throw new ConfigException(ConfigException.INVALID_VALUE, port.origin()
                        + ": port 0 makes the node pick a free port; give the one it printed at start with --port"
                        + " or --url");
            }
            uri = URI.create((keystore.value() == null ? "http" : "https") + "://" + connectHost(host.value()) + ":"
                    + port.value());
            List<String> origins = new ArrayList<>();
            for (SettingValue<?> v : List.of(host, port, keystore)) {
                if (!v.isDefault()) {
                    origins.add(v.origin());
                }
            }
            origin = origins.isEmpty() ? "the default" : "from " + String.join(", ", origins);
        }

        SettingValue<String> admin = SettingValue.pick(StartSettings.ADMIN_TOKEN, layers);
        SettingValue<String> ingest = SettingValue.pick(StartSettings.INGEST_TOKEN, layers);
        SettingValue<String> token = admin.value() != null ? admin : ingest;

        SSLContext ssl = null;
        if (keystore.value() != null && "https".equalsIgnoreCase(uri.getScheme())) {
            ssl = trusting(keystore, SettingValue.pick(StartSettings.TLS_KEYSTORE_PASSWORD, layers));
        }
        long nodeTimeoutMs = SettingValue.pick(StartSettings.REQUEST_TIMEOUT, layers).value();
        return new NodeTarget(uri, origin, token.value(), token.value() == null ? null : token.origin(), ssl,
                Duration.ofMillis(nodeTimeoutMs).plus(TIMEOUT_MARGIN));
    }

    /** The index of the first layer that sets one of {@code keys}, or the number of layers. */
    private static int rank(List<ConfigLayer> layers, Set<String> keys) {
        for (int i = 0; i < layers.size(); i++) {
            for (String key : keys) {
                if (layers.get(i).values().containsKey(key)) {
                    return i;
                }
            }
        }
        return layers.size();
    }

    private static String addressOrigin(List<ConfigLayer> layers) {
        for (ConfigLayer layer : layers) {
            for (String key : ADDRESS_KEYS) {
                if (layer.values().containsKey(key)) {
                    return layer.values().get(key).origin();
                }
            }
        }
        return "host/port";
    }

    /** The address to connect to for a bind address: the wildcard ones mean this machine. */
    static String connectHost(String bindHost) {
        return switch (bindHost) {
            case "0.0.0.0", "::", "[::]" -> "127.0.0.1";
            default -> bindHost.contains(":") && !bindHost.startsWith("[") ? "[" + bindHost + "]" : bindHost;
        };
    }

    private static SSLContext trusting(SettingValue<Path> keystore, SettingValue<String> password) {
        try (InputStream in = Files.newInputStream(keystore.value())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.value() == null ? null : password.value().toCharArray());
            // the certificate of each entry (the node's key entry included), as trusted certificates
            KeyStore certificates = KeyStore.getInstance("PKCS12");
            certificates.load(null, null);
            for (String alias : Collections.list(store.aliases())) {
                if (store.getCertificate(alias) != null) {
                    certificates.setCertificateEntry(alias, store.getCertificate(alias));
                }
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(certificates);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, keystore.origin() + ": cannot use "
                    + keystore.value() + " to trust the node's certificate (" + e.getMessage()
                    + "); give the node's PKCS12 keystore and its --tls-keystore-password");
        }
    }
}
