package io.railgun.node.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log levels for when no logback configuration is on the classpath: logback's own default is DEBUG
 * everywhere, which buries the node's lines under Kafka's and the JDK's. Then the root is INFO and
 * Kafka (clients and the embedded broker) WARN. A {@code logback.xml} on the classpath, or
 * {@code -Dlogback.configurationFile=...} in {@code RAILGUN_JAVA_OPTS}, takes over entirely.
 * Called once by {@link Main#main} before anything logs; {@link #quiet()} instead for the client
 * commands.
 */
final class LogDefaults {

    private LogDefaults() {
    }

    /**
     * For the client commands, which print their own results: only warnings and errors, whatever
     * {@code logback.xml} says, unless {@code -Dlogback.configurationFile} takes over.
     */
    static void quiet() {
        if (System.getProperty("logback.configurationFile") == null
                && LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
            context.getLogger("io.railgun").setLevel(Level.WARN);
        }
    }

    static void apply() {
        ClassLoader loader = LogDefaults.class.getClassLoader();
        if (System.getProperty("logback.configurationFile") != null || loader.getResource("logback.xml") != null
                || loader.getResource("logback-test.xml") != null) {
            return;
        }
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
            context.getLogger("org.apache.kafka").setLevel(Level.WARN);
            context.getLogger("kafka").setLevel(Level.WARN);
        }
    }
}
