package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code READLINK4resok}: the target of a symbolic link ({@code linktext4}), byte for byte. */
public class READLINK4resok implements XdrAble {
    public byte[] link = new byte[0];

    public READLINK4resok() {
    }

    public READLINK4resok(byte[] link) {
        this.link = link;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeDynamicOpaque(link);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        link = XdrSupport.decodeOpaque(xdr, XdrSupport.MAX_STRING);
    }
}
