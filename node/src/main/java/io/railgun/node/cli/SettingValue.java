package io.railgun.node.cli;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * A setting's value after resolution, and where it came from.
 *
 * @param setting the setting
 * @param value   the parsed value, or the default (null for "none")
 * @param origin  {@code --port}, {@code RAILGUN_PORT}, {@code 'port' in FILE}, or {@code default}
 * @param <T>     the value type
 */
public record SettingValue<T>(Setting<T> setting, T value, String origin) {
    public static final String DEFAULT_ORIGIN = "default";

    /**
     * The value of the first layer that sets {@code setting}, parsed (a secret given as a file is read
     * from it), else the default.
     *
     * @param layers highest precedence first
     * @throws ConfigException when the value does not parse or its file cannot be read
     */
    public static <T> SettingValue<T> pick(Setting<T> setting, List<ConfigLayer> layers) {
        for (ConfigLayer layer : layers) {
            RawValue raw = layer.values().get(setting.key());
            if (raw != null) {
                return new SettingValue<>(setting, parse(setting, raw), raw.origin());
            }
        }
        return new SettingValue<>(setting, setting.defaultValue(), DEFAULT_ORIGIN);
    }

    public boolean isDefault() {
        return origin.equals(DEFAULT_ORIGIN);
    }

    /** The value as shown in the logged configuration, secrets masked; "none (embedded broker)" for no Kafka. */
    public String display() {
        if (value == null && isDefault() && setting.defaultText() != null) {
            return setting.defaultText();
        }
        return setting.display(value);
    }

    private static <T> T parse(Setting<T> setting, RawValue raw) {
        String text = raw.secretFile() ? readSecret(raw) : raw.text();
        try {
            return setting.type().parse(text);
        } catch (IllegalArgumentException e) {
            String shown = setting.secret() ? "the value" : "'" + text + "'";
            throw new ConfigException(ConfigException.INVALID_VALUE, raw.origin() + ": " + shown + " is "
                    + e.getMessage());
        }
    }

    /** The file's content without surrounding whitespace (the trailing newline editors add). */
    private static String readSecret(RawValue raw) {
        Path file;
        try {
            file = ValueTypes.PATH.parse(raw.text());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigException.INVALID_VALUE, raw.origin() + ": '" + raw.text() + "' is "
                    + e.getMessage());
        }
        String content;
        try {
            content = Files.readString(file).strip();
        } catch (NoSuchFileException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, raw.origin() + ": " + file + " does not exist");
        } catch (CharacterCodingException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, raw.origin() + ": " + file
                    + " is not UTF-8 text");
        } catch (IOException e) {
            throw new ConfigException(ConfigException.UNREADABLE_FILE, raw.origin() + ": cannot read " + file + ": "
                    + Failures.reason(e));
        }
        if (content.isEmpty()) {
            throw new ConfigException(ConfigException.INVALID_VALUE, raw.origin() + ": " + file + " is empty");
        }
        return content;
    }
}
