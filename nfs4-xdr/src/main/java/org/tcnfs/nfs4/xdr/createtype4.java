package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code createtype4}: the kind of object CREATE makes ({@link nfs_ftype4}), with the link target of a
 * symbolic link and the device numbers of a device. Every other type, NF4REG included, carries nothing
 * (the operation answers NFS4ERR_BADTYPE for the types it cannot create).
 *
 * <p>{@link #linkdata} is the {@code linktext4} as sent, byte for byte.
 */
public class createtype4 implements XdrAble {
    public int type;
    /** The link target; only for {@code NF4LNK}. */
    public byte[] linkdata;
    /** The device numbers; only for {@code NF4BLK} and {@code NF4CHR}. */
    public specdata4 devdata;

    public createtype4() {
    }

    public createtype4(int type) {
        this.type = type;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(type);
        switch (type) {
            case nfs_ftype4.NF4LNK -> xdr.xdrEncodeDynamicOpaque(linkdata);
            case nfs_ftype4.NF4BLK, nfs_ftype4.NF4CHR -> devdata.xdrEncode(xdr);
            default -> {
            }
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        type = xdr.xdrDecodeInt();
        linkdata = null;
        devdata = null;
        switch (type) {
            case nfs_ftype4.NF4LNK -> linkdata = XdrSupport.decodeOpaque(xdr, XdrSupport.MAX_STRING);
            case nfs_ftype4.NF4BLK, nfs_ftype4.NF4CHR -> {
                devdata = new specdata4();
                devdata.xdrDecode(xdr);
            }
            default -> {
            }
        }
    }
}
