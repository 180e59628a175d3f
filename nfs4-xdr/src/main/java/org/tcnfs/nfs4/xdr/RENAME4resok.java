package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code RENAME4resok}: how the source and the target directories changed. */
public class RENAME4resok implements XdrAble {
    public change_info4 source_cinfo = new change_info4();
    public change_info4 target_cinfo = new change_info4();

    public RENAME4resok() {
    }

    public RENAME4resok(change_info4 source_cinfo, change_info4 target_cinfo) {
        this.source_cinfo = source_cinfo;
        this.target_cinfo = target_cinfo;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        source_cinfo.xdrEncode(xdr);
        target_cinfo.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        source_cinfo = new change_info4();
        source_cinfo.xdrDecode(xdr);
        target_cinfo = new change_info4();
        target_cinfo.xdrDecode(xdr);
    }
}
