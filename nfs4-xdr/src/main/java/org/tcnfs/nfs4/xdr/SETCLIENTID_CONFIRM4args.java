package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code SETCLIENTID_CONFIRM4args} (RFC 7530 section 16.34): the client id and the confirm verifier. */
public class SETCLIENTID_CONFIRM4args implements XdrAble {
    public long clientid;
    public verifier4 setclientid_confirm = new verifier4();

    public SETCLIENTID_CONFIRM4args() {
    }

    public SETCLIENTID_CONFIRM4args(long clientid, verifier4 setclientid_confirm) {
        this.clientid = clientid;
        this.setclientid_confirm = setclientid_confirm;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(clientid);
        setclientid_confirm.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        clientid = xdr.xdrDecodeLong();
        setclientid_confirm = new verifier4();
        setclientid_confirm.xdrDecode(xdr);
    }
}
