package io.railgun.node.cli;

import java.util.Locale;

/**
 * The one definition of a setting: its key, value type, default and meaning. Everything else derives
 * from it: the flag ({@code --key}), the config file key ({@code key}), the environment variable
 * ({@code RAILGUN_KEY} with {@code _} for {@code -}), the line in {@code --help} and in the logged
 * configuration. Immutable.
 *
 * @param key          the long flag name without dashes, also the config file key
 * @param paramLabel   what the value is, in {@code --help} ({@code PORT}, {@code DIR})
 * @param envVar       the environment variable
 * @param type         parses and shows the value
 * @param defaultValue the value when no source sets it; null means "none"
 * @param defaultText  how the default is shown when its formatted value says too little, or null
 * @param description  the meaning, a sentence without a final period
 * @param secret       masked wherever shown; also accepted from a file ({@code --key-file FILE})
 * @param <T>          the value type
 */
public record Setting<T>(String key, String paramLabel, String envVar, ValueType<T> type, T defaultValue,
                         String defaultText, String description, boolean secret) {

    /** The suffix of the variants that read a secret from a file: {@code --admin-token-file}. */
    public static final String FILE_SUFFIX = "-file";

    public static <T> Setting<T> of(String key, String paramLabel, ValueType<T> type, T defaultValue,
                                    String description) {
        return new Setting<>(key, paramLabel, envVarOf(key), type, defaultValue, null, description, false);
    }

    /** {@code RAILGUN_} and the key upper-cased, {@code -} becoming {@code _}. */
    public static String envVarOf(String key) {
        return "RAILGUN_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** This setting, masked in output and also read from a file with {@code -file}. */
    public Setting<T> asSecret() {
        return new Setting<>(key, paramLabel, envVar, type, defaultValue, defaultText, description, true);
    }

    /** This setting with its default shown as {@code text} in {@code --help}. */
    public Setting<T> withDefaultText(String text) {
        return new Setting<>(key, paramLabel, envVar, type, defaultValue, text, description, secret);
    }

    /** This setting read from another environment variable than {@code RAILGUN_KEY}. */
    public Setting<T> withEnvVar(String name) {
        return new Setting<>(key, paramLabel, name, type, defaultValue, defaultText, description, secret);
    }

    public String flag() {
        return "--" + key;
    }

    /** The key of the variant reading the value from a file: {@code admin-token-file}. */
    public String fileKey() {
        return key + FILE_SUFFIX;
    }

    public String fileEnvVar() {
        return envVar + "_FILE";
    }

    /** The default as shown in {@code --help} and the docs. */
    public String defaultDisplay() {
        if (defaultText != null) {
            return defaultText;
        }
        return display(defaultValue);
    }

    /** A value as shown in the logged configuration: secrets masked, null as {@code none}. */
    public String display(T value) {
        if (value == null) {
            return "none";
        }
        return secret ? "******" : type.format(value);
    }
}
