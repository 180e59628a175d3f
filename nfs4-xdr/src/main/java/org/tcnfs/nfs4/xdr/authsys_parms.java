package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code authsys_parms} (RFC 5531): an AUTH_SYS credential, as carried in callback security parameters. */
public class authsys_parms implements XdrAble {
    /** The longest machine name. */
    public static final int MAX_MACHINE_NAME = 255;
    /** The most supplementary groups. */
    public static final int MAX_GIDS = 16;

    public int stamp;
    public String machinename = "";
    public int uid;
    public int gid;
    public int[] gids = new int[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(stamp);
        XdrSupport.encodeString(xdr, machinename);
        xdr.xdrEncodeInt(uid);
        xdr.xdrEncodeInt(gid);
        xdr.xdrEncodeIntVector(gids);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        stamp = xdr.xdrDecodeInt();
        machinename = XdrSupport.decodeString(xdr, MAX_MACHINE_NAME);
        uid = xdr.xdrDecodeInt();
        gid = xdr.xdrDecodeInt();
        gids = XdrSupport.decodeIntArray(xdr, MAX_GIDS);
    }
}
