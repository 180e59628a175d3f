package org.tcnfs.client.rpc;

import java.util.Arrays;
import java.util.Objects;

/**
 * The answer to a call whose arguments were sent as raw bytes.
 *
 * @param acceptStatus SUCCESS when the procedure ran, else why not (GARBAGE_ARGS for undecodable input)
 * @param body the XDR-encoded result that followed a SUCCESS status (empty otherwise)
 */
public record RawReply(RpcAcceptStatus acceptStatus, byte[] body) {
    public RawReply {
        Objects.requireNonNull(acceptStatus, "acceptStatus");
        body = Objects.requireNonNull(body, "body").clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawReply other && acceptStatus == other.acceptStatus && Arrays.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return 31 * acceptStatus.hashCode() + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "RawReply[" + acceptStatus + ", " + body.length + " bytes]";
    }
}
