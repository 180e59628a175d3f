package org.tcnfs.client.rpc;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The server answered an RPC call, but not with a result: the call was accepted with a status other
 * than SUCCESS (GARBAGE_ARGS, PROC_UNAVAIL, ...) or denied (RPC_MISMATCH, AUTH_ERROR).
 */
public final class RpcReplyException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient RpcAcceptStatus acceptStatus;

    /** An accepted reply with a status other than SUCCESS. */
    public RpcReplyException(RpcAcceptStatus acceptStatus, String message) {
        super(message);
        this.acceptStatus = Objects.requireNonNull(acceptStatus);
    }

    /** A denied reply (MSG_DENIED). */
    public RpcReplyException(String message) {
        super(message);
        this.acceptStatus = null;
    }

    /** The accept status, or empty when the call was denied rather than accepted. */
    public Optional<RpcAcceptStatus> acceptStatus() {
        return Optional.ofNullable(acceptStatus);
    }

    /** Whether the call was denied (MSG_DENIED) rather than accepted with an error. */
    public boolean denied() {
        return acceptStatus == null;
    }
}
