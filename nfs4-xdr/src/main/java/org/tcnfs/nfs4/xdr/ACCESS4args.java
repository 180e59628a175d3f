package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code ACCESS4args}: the access bits ({@code ACCESS4_*}) the client asks about. */
public class ACCESS4args implements XdrAble {
    /** Read data or list a directory. */
    public static final int ACCESS4_READ = 0x00000001;
    /** Look up a name in a directory. */
    public static final int ACCESS4_LOOKUP = 0x00000002;
    /** Rewrite data or change a directory's entries. */
    public static final int ACCESS4_MODIFY = 0x00000004;
    /** Write beyond the end of a file or add entries to a directory. */
    public static final int ACCESS4_EXTEND = 0x00000008;
    /** Delete an entry of a directory. */
    public static final int ACCESS4_DELETE = 0x00000010;
    /** Execute a file. */
    public static final int ACCESS4_EXECUTE = 0x00000020;

    public int access;

    public ACCESS4args() {
    }

    public ACCESS4args(int access) {
        this.access = access;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(access);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        access = xdr.xdrDecodeInt();
    }
}
