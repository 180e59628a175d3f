package org.tcnfs.recovery;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a recovery did, or (for a check) what it would do.
 *
 * @param pending records still in LMDB afterwards (for a check: all of them)
 * @param recovered transactions undone by this run
 * @param orphanBackups backup directories no record refers to (removed by a recovery, listed by a check)
 * @param took how long the run took
 */
public record RecoveryReport(List<Pending> pending, List<Recovered> recovered, List<Path> orphanBackups,
        Duration took) {

    public RecoveryReport {
        pending = List.copyOf(pending);
        recovered = List.copyOf(recovered);
        orphanBackups = List.copyOf(orphanBackups);
    }

    /** A record left in LMDB. */
    public record Pending(long txnId, String exportId, Instant started, int steps, int undoneSteps, int opCount,
            String tag, int undoAttempts, Optional<String> lastUndoError) {
    }

    /** A transaction undone by recovery. */
    public record Recovered(long txnId, String exportId, int stepsUndone, Duration took) {
    }

    /** One line for the log. */
    public String summary() {
        return "recovery: " + recovered.size() + " interrupted transaction(s) undone ("
                + recovered.stream().mapToInt(Recovered::stepsUndone).sum() + " steps), "
                + pending.size() + " record(s) pending, " + orphanBackups.size() + " orphan backup director"
                + (orphanBackups.size() == 1 ? "y" : "ies") + ", in " + took.toMillis() + " ms";
    }
}
