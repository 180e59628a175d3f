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

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(argop);
        if (args != null) {
            args.xdrEncode(xdr);
        }
    }

    /**
     * Decodes one operation. An operation number the server does not know leaves {@link #argop} set to
     * {@link nfs_opnum4#OP_ILLEGAL}; the rest of the stream cannot be decoded then.
     */
    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        argop = xdr.xdrDecodeInt();
        if (!OperationCodecs.knows(argop)) {
            argop = nfs_opnum4.OP_ILLEGAL;
            args = null;
            return;
        }
        args = OperationCodecs.newArgs(argop);
        if (args != null) {
            args.xdrDecode(xdr);
        }
    }
}
