package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code nfs_argop4}: one operation of a COMPOUND, its number and its arguments.
 *
 * <p>{@link #args} is the operation's {@code XXX4args} type, or {@code null} for operations without
 * arguments (PUTROOTFH, GETFH, SAVEFH, ...). {@link OperationCodecs} knows which type each number takes.
 */
public class nfs_argop4 implements XdrAble {
    public int argop;
    public XdrAble args;

    public nfs_argop4() {
    }

    public nfs_argop4(int argop, XdrAble args) {
        this.argop = argop;
        this.args = args;
    }

    /** Whether the server decoded this operation's arguments, so that the operations after it can be decoded. */
    public boolean decodable() {
        return argop != nfs_opnum4.OP_ILLEGAL && OperationCodecs.knows(argop);
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(argop);
        if (args != null) {
            args.xdrEncode(xdr);
        }
    }

    /**
     * Decodes one operation. An operation number the server cannot decode leaves {@link #args} null, and the rest
     * of the stream cannot be decoded then ({@link #decodable()} is false): a number RFC 8881 defines (3 to 58,
     * such as DELEGPURGE or LAYOUTGET) keeps its number, for the server to answer NFS4ERR_NOTSUPP at its position
     * (RFC 8881 section 15.1.1.5); any other becomes {@link nfs_opnum4#OP_ILLEGAL} (NFS4ERR_OP_ILLEGAL).
     */
    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        argop = xdr.xdrDecodeInt();
        if (!OperationCodecs.knows(argop)) {
            if (argop < nfs_opnum4.OP_ACCESS || argop > nfs_opnum4.OP_RECLAIM_COMPLETE) {
                argop = nfs_opnum4.OP_ILLEGAL;
            }
            args = null;
            return;
        }
        args = OperationCodecs.newArgs(argop);
        if (args != null) {
            args.xdrDecode(xdr);
        }
    }
}
