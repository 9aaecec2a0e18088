package io.railgun.node.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * {@code --version}: Railgun's version and the JVM it runs on. The version comes from the system
 * property {@code railgun.version} (set by {@code ./railgun} from the root pom), else the jar's
 * manifest or Maven metadata, else {@code development build}.
 */
public final class VersionProvider implements IVersionProvider {
    static final String PROPERTY = "railgun.version";

    @Override
    public String[] getVersion() {
        return new String[] {
            "railgun " + version(),
            "JVM " + Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ") at "
                    + System.getProperty("java.home")
        };
    }

    static String version() {
        String version = System.getProperty(PROPERTY);
        if (version == null || version.isBlank()) {
            version = VersionProvider.class.getPackage().getImplementationVersion();
        }
        if (version == null) {
            version = fromMavenMetadata();
        }
        return version == null ? "development build" : version;
    }

    private static String fromMavenMetadata() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(
                "/META-INF/maven/io.railgun/railgun-node/pom.properties")) {
            if (in == null) {
                return null;
            }
            var properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            return null;
        }
    }
}
