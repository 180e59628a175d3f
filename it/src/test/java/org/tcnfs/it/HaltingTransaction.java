package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.txn.CrashPoints;

/**
 * A server armed to halt at one crash point and the transaction that makes it halt: the set-up shared by the crash
 * tests of a single transaction ({@link TransactionJournalCrashIT}, {@link TransactionalRemoveFileCrashIT},
 * {@link TransactionalRemoveDirectoryCrashIT}).
 */
final class HaltingTransaction {
    /** How long a server armed at a crash point may take to halt once the transaction reached it. */
    static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    /** What a test makes before the transaction, through one session's operations; returns the transaction. */
    @FunctionalInterface
    interface Setup {
        CompoundBuilder transaction(NfsOps nfs) throws Exception;
    }

    private HaltingTransaction() {
    }

    /** A server trusting root's credentials, armed to halt at {@code crashPoint}; the test closes it. */
    static ServerProcess armedAt(String crashPoint) throws IOException {
        return armedAt(crashPoint, List.of());
    }

    /** {@link #armedAt(String)} with {@code jvmArgs} besides (test injections). */
    static ServerProcess armedAt(String crashPoint, List<String> jvmArgs) throws IOException {
        List<String> args = new ArrayList<>(jvmArgs);
        args.add("-D" + CrashPoints.PROPERTY + "=" + crashPoint);
        return ServerProcess.start(args, ServerProcess.TRUSTED_ROOT_ARGS.toArray(new String[0]));
    }

    /**
     * Runs {@code setup} in a session of client {@code clientName}, sends the transaction it returns (which gets no
     * reply) and checks that {@code server} halted at {@code crashPoint}, with the crash points' exit status.
     */
    static void halt(ServerProcess server, String crashPoint, String clientName, Setup setup) throws Exception {
        ItSession it = ItSession.open(server, clientName);
        try {
            CompoundBuilder transaction = setup.transaction(it.nfs());
            try {
                it.session().executeTransaction(transaction);
            } catch (IOException | IllegalStateException e) {
                // the server halted inside the compound: no reply
            }
        } finally {
            try {
                it.close();
            } catch (IOException e) {
                // closing the session of a halted server
            }
        }
        assertThat(server.awaitExit(EXIT_TIMEOUT)).as("halted at " + crashPoint).isEqualTo(CrashPoints.EXIT_STATUS);
    }
}
