package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code nfs_fh4}: an opaque file handle of at most 128 bytes. */
public class nfs_fh4 implements XdrAble {
    public byte[] value;

    public nfs_fh4() {
    }

    public nfs_fh4(byte[] value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeDynamicOpaque(value);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        value = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_FHSIZE);
    }
}
