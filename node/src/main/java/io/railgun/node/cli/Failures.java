package io.railgun.node.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Short, human reasons for exceptions, for one-line error messages. */
final class Failures {

    private Failures() {
    }

    /** {@code permission denied}, {@code Address already in use} ...: the reason without the class name. */
    static String reason(Throwable t) {
        if (t instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (t instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (t instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : oneLine(message);
    }

    static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
