package org.tcnfs.nfs4.xdr;

import org.dcache.oncrpc4j.rpc.OncRpcException;

/** Input that does not follow the XDR definition or exceeds a decoding bound. */
public final class MalformedXdrException extends OncRpcException {
    private static final long serialVersionUID = 1L;

    public MalformedXdrException(String message) {
        super(message);
    }
}
