package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code cb_client4} (RFC 7530 section 16.33): the NFSv4.0 client's callback program and address. */
public class cb_client4 implements XdrAble {
    public int cb_program;
    public netaddr4 cb_location = new netaddr4();

    public cb_client4() {
    }

    public cb_client4(int cb_program, netaddr4 cb_location) {
        this.cb_program = cb_program;
        this.cb_location = cb_location;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(cb_program);
        cb_location.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cb_program = xdr.xdrDecodeInt();
        cb_location = new netaddr4();
        cb_location.xdrDecode(xdr);
    }
}
