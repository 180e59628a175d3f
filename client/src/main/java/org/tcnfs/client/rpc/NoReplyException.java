package org.tcnfs.client.rpc;

import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A call got no reply and the client stopped waiting for it, while the connection was still open: what the call
 * did on the server is unknown (it may still run, have finished, or never have started). A {@link
 * SocketTimeoutException}, so code that handles timeouts handles it too; callers that know what the call was
 * (a commit, a compound of a transaction) turn it into a message that says what is known of the outcome.
 */
public final class NoReplyException extends SocketTimeoutException {
    private static final long serialVersionUID = 1L;

    private final transient Duration waited;
    private final int workingAnswers;

    NoReplyException(int procedure, InetSocketAddress server, Duration timeout, Duration waited, int probes,
            int workingAnswers, String why) {
        super("no reply to procedure 0x" + Integer.toUnsignedString(procedure, 16) + " from " + server + " within "
                + seconds(waited) + " (timeout " + seconds(timeout) + ", " + probes + " questions whether it still "
                + "worked on it, " + workingAnswers + " answered yes): " + why);
        this.waited = waited;
        this.workingAnswers = workingAnswers;
    }

    private static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    /** How long the call waited in all. */
    public Duration waited() {
        return waited;
    }

    /** How many times the server answered that it still worked on the call (NFS4ERR_DELAY to a retry, a ping). */
    public int workingAnswers() {
        return workingAnswers;
    }
}
