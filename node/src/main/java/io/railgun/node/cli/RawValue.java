package io.railgun.node.cli;

/**
 * One setting's text as a source gave it, before parsing.
 *
 * @param text       the stripped text (never blank for a setting); for a secret read from a file, its path
 * @param origin     where it came from, as a user would write it: {@code --port}, {@code RAILGUN_PORT},
 *                   {@code 'port' in /etc/railgun.yaml}
 * @param secretFile the value is in the file named by {@code text} ({@code --admin-token-file})
 */
public record RawValue(String text, String origin, boolean secretFile) {
}
