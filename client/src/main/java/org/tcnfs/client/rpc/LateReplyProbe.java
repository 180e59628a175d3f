package org.tcnfs.client.rpc;

import java.io.IOException;
import java.util.Optional;

/**
 * Asks the server whether it still works on a call whose reply is late, typically by sending the same request
 * again: an NFSv4.1 compound with the same slot and sequence id, which the server answers NFS4ERR_DELAY while the
 * first one runs and from its reply cache once it is done (RFC 8881 2.10.6.2); TXN_COMMIT or TXN_ABORT of the same
 * transaction, answered NFS4ERR_DELAY while the first one runs and with its outcome after (docs/protocol.md).
 *
 * @param <T> the call's result type
 */
@FunctionalInterface
public interface LateReplyProbe<T> {
    /**
     * Empty while the server still works on the call; its finished answer once it is done.
     *
     * @throws java.net.SocketTimeoutException when the server did not answer the question within the timeout
     */
    Optional<T> ask() throws IOException;
}
