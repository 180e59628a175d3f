package org.tcnfs.txn;

import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash-point injection for crash tests (issue 4): when the point named by the system property
 * {@value #PROPERTY} (or given to {@link #at}) is reached, the process halts at once with exit status
 * {@value #EXIT_STATUS} ({@link Runtime#halt}: no shutdown hooks, no flushing; as close to kill -9 as Java
 * gets). Names used by the transaction layer and recovery:
 * <ul>
 *   <li>{@code after-record-durable}: the recovery record is durable, nothing changed yet;</li>
 *   <li>{@code before-op-N}, {@code after-op-N}: around operation N (0-based position in the compound);</li>
 *   <li>{@code before-commit}: every operation ran, the data is durable, the commit point not reached;</li>
 *   <li>{@code after-commit}: the commit point passed, the reply not sent;</li>
 *   <li>{@code mid-undo-N}: before the N-th undo step (1-based) of an online rollback;</li>
 *   <li>{@code mid-recovery-N}: before the N-th undo step (1-based) of startup recovery;</li>
 *   <li>{@code before-journaled-rows-commit}: an LMDB commit is about to carry handle rows that plain compounds
 *       made durable in the row journal (their replies may be out); reached by the handle table.</li>
 * </ul>
 * Off in production: {@link #NONE} compares nothing.
 */
public final class CrashPoints {
    private static final Logger LOG = LoggerFactory.getLogger(CrashPoints.class);

    /** The system property naming the crash point. */
    public static final String PROPERTY = "tcnfs.crash-point";

    /** Exit status of a halt at a crash point (as if killed by SIGKILL). */
    public static final int EXIT_STATUS = 137;

    /** No crash point. */
    public static final CrashPoints NONE = new CrashPoints(null);

    private final String armed;

    private CrashPoints(String armed) {
        this.armed = armed;
    }

    /** The crash point the system property names, or {@link #NONE}. */
    public static CrashPoints fromSystemProperties() {
        return Optional.ofNullable(System.getProperty(PROPERTY)).filter(s -> !s.isBlank())
                .map(CrashPoints::at).orElse(NONE);
    }

    /** A crash at point {@code name}. */
    public static CrashPoints at(String name) {
        return new CrashPoints(Objects.requireNonNull(name, "name").strip());
    }

    /** The armed point's name, if any. */
    public Optional<String> armed() {
        return Optional.ofNullable(armed);
    }

    /** Halts the process if {@code name} is the armed point. */
    public void reach(String name) {
        if (armed != null && armed.equals(name)) {
            halt(name);
        }
    }

    /** Halts the process if {@code prefix + number} is the armed point. */
    public void reach(String prefix, int number) {
        if (armed != null && armed.startsWith(prefix) && armed.equals(prefix + number)) {
            halt(armed);
        }
    }

    private static void halt(String name) {
        LOG.error("crash point {} reached: halting now (test injection, -D{})", name, PROPERTY);
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_STATUS);
    }
}
