package org.tcnfs.client.cli;

import java.util.Objects;

/** A command failed for a reason to print as one line, with the exit status to end with. */
public final class CliException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ExitCode exitCode;

    public CliException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
