package io.railgun.node.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * Reads a config file into a {@link ConfigLayer}: a {@code .properties} file (UTF-8) or a
 * {@code .yaml}/{@code .yml} file, with the keys of the flags without dashes. In YAML, nested maps
 * join their keys with dots, so {@code kafka-property:} may hold a map of Kafka properties, and
 * {@code kafka} may be a list of servers. A key that names no setting is an error listing the valid
 * ones; an empty value counts as not set.
 */
public final class ConfigFile {

    private ConfigFile() {
    }

    /**
     * @param origin where the file's name came from ({@code --config}, {@code RAILGUN_CONFIG}), for errors
     */
    public static ConfigLayer read(Path file, String origin) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        Map<String, String> entries;
        try {
            if (name.endsWith(".properties")) {
                entries = readProperties(file);
            } else if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                entries = readYaml(file);
            } else {
                throw new ConfigException(ConfigException.INVALID_VALUE, origin + ": config file " + file
                        + " must be a .properties, .yaml or .yml file");
            }
        } catch (NoSuchFileException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, origin + ": config file " + file
                    + " does not exist");
        } catch (CharacterCodingException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, origin + ": config file " + file
                    + " is not UTF-8 text");
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new ConfigException(ConfigException.INVALID_VALUE, origin + ": config file " + file
                    + " is not valid YAML" + (at == null ? "" : " (line " + at.getLineNr() + ", column "
                    + at.getColumnNr() + ")") + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, origin + ": cannot read config file " + file
                    + ": " + Failures.reason(e));
        }
        return toLayer(entries, file);
    }

    /** The keys a config file may hold, for error messages and docs. */
    public static List<String> validKeys() {
        List<String> keys = new ArrayList<>();
        for (Setting<?> s : StartSettings.ALL) {
            keys.add(s.key());
            if (s.secret()) {
                keys.add(s.fileKey());
            }
        }
        keys.add(StartSettings.KAFKA_PROPERTY_PREFIX + "<kafka property>");
        return keys;
    }

    static ConfigLayer toLayer(Map<String, String> entries, Path file) {
        var layer = new ConfigLayer.Builder(StartSettings.ALL);
        List<String> unknown = new ArrayList<>();
        for (var e : entries.entrySet()) {
            if (e.getKey().equals(StartSettings.CONFIG.key())) {
                throw new ConfigException(ConfigException.INVALID_VALUE, "'config' in " + file
                        + ": a config file cannot name another one; give it with --config or RAILGUN_CONFIG");
            }
            if (e.getKey().equals(StartSettings.KAFKA_PROPERTY)) {
                throw new ConfigException(ConfigException.INVALID_VALUE, "'" + e.getKey() + "' in " + file
                        + ": give each Kafka property as a key kafka-property.<property>"
                        + " (in YAML also a map under kafka-property:)");
            }
            if (!layer.putKey(e.getKey(), e.getValue(), "'" + e.getKey() + "' in " + file)) {
                unknown.add(e.getKey());
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException(ConfigException.UNKNOWN_KEY, Suggestions.unknown(
                    unknown.size() == 1 ? "key" : "keys", unknown, validKeys(), " in " + file));
        }
        return layer.build();
    }

    private static Map<String, String> readProperties(Path file) throws IOException {
        var properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames().stream().sorted().toList()) {
            entries.put(key, properties.getProperty(key));
        }
        return entries;
    }

    private static Map<String, String> readYaml(Path file) throws IOException {
        JsonNode root;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = new YAMLMapper().readTree(reader);
        }
        Map<String, String> entries = new LinkedHashMap<>();
        if (root == null || root.isMissingNode() || root.isNull()) {
            return entries;
        }
        if (!root.isObject()) {
            throw new ConfigException(ConfigException.INVALID_VALUE, "config file " + file
                    + " must be a map of keys to values (key: value), not a "
                    + root.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        flatten("", root, entries, file);
        return entries;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out, Path file) {
        if (node.isObject()) {
            for (var field : node.properties()) {
                flatten(prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), out, file);
            }
        } else if (node.isArray()) {
            if (!prefix.equals(StartSettings.KAFKA.key())) {
                throw new ConfigException(ConfigException.INVALID_VALUE, "'" + prefix + "' in " + file
                        + ": expects one value, not a list");
            }
            var joined = new StringJoiner(",");
            node.forEach(item -> joined.add(item.asText()));
            out.put(prefix, joined.toString());
        } else {
            out.put(prefix, node.isNull() ? "" : node.asText());
        }
    }
}
