package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code stateid4}: a sequence id and 12 opaque bytes. */
public class stateid4 implements XdrAble {
    public int seqid;
    public byte[] other = new byte[XdrSupport.NFS4_OTHER_SIZE];

    public stateid4() {
    }

    public stateid4(int seqid, byte[] other) {
        this.seqid = seqid;
        this.other = other;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(seqid);
        xdr.xdrEncodeOpaque(other, XdrSupport.NFS4_OTHER_SIZE);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        seqid = xdr.xdrDecodeInt();
        other = XdrSupport.decodeFixedOpaque(xdr, XdrSupport.NFS4_OTHER_SIZE);
    }
}
