package org.tcnfs.server;

import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import org.tcnfs.server.config.ServerConfig;

/**
 * Why the server could not start, as one line for an operator: the port or path and the cause in plain
 * words ({@code port 2049 on 127.0.0.1 is in use}, {@code /srv/export: permission denied}), never a Java
 * exception name. {@link Main} logs that line at ERROR and the stack trace only at DEBUG.
 */
final class StartupFailure {
    private StartupFailure() {
    }

    /** The line for {@code failure}, which stopped a server started with {@code config}. */
    static String describe(Throwable failure, ServerConfig config) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BindException bind) {
                return bindFailure(bind, failure, config);
            }
            if (t instanceof FileSystemException fs) {
                return fileFailure(fs);
            }
        }
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return withoutRepeatedPrefix(message);
    }

    private static String bindFailure(BindException bind, Throwable outer, ServerConfig config) {
        // Jetty (the HTTP endpoints) wraps its BindException in "Failed to bind to /HOST:PORT"; the NFS
        // listener throws it bare
        boolean metrics = outer != bind && String.valueOf(outer.getMessage()).startsWith("Failed to bind")
                && config.metricsPort().isPresent();
        String what = metrics ? "metrics port " + config.metricsPort().getAsInt() : "port " + config.port();
        String setting = metrics ? "--metrics-port" : "--port";
        String reason = String.valueOf(bind.getMessage()).toLowerCase(Locale.ROOT);
        if (reason.contains("in use")) {
            return what + " on " + config.bind() + " is in use (another server listens there; stop it or choose "
                    + "another port with " + setting + ")";
        }
        if (reason.contains("permission denied") || reason.contains("access denied")) {
            return what + " on " + config.bind() + ": permission denied (ports below 1024 need root or "
                    + "CAP_NET_BIND_SERVICE; choose another with " + setting + ")";
        }
        if (reason.contains("assign")) {
            return "cannot listen on " + config.bind() + ": not an address of this machine (see --bind)";
        }
        return what + " on " + config.bind() + ": " + bind.getMessage();
    }

    private static String fileFailure(FileSystemException e) {
        String file = e.getFile();
        String cause;
        if (e instanceof AccessDeniedException) {
            cause = "permission denied";
        } else if (e instanceof NoSuchFileException) {
            cause = "no such file or directory";
        } else if (e instanceof NotDirectoryException) {
            cause = "not a directory";
        } else if (e.getReason() != null) {
            cause = e.getReason().toLowerCase(Locale.ROOT);
        } else {
            cause = "cannot be used";
        }
        String other = e.getOtherFile();
        return (file == null ? "" : file + ": ") + cause + (other == null ? "" : " (" + other + ")");
    }

    /** {@code "x: line 3: line 3: y"} as {@code "x: line 3: y"}: a wrapped message repeated its prefix. */
    static String withoutRepeatedPrefix(String message) {
        return message.replaceAll("(line \\d+: )(\\1)+", "$1");
    }
}
