package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code SETCLIENTID4resok}: the client id and the verifier SETCLIENTID_CONFIRM must present. */
public class SETCLIENTID4resok implements XdrAble {
    public long clientid;
    public verifier4 setclientid_confirm = new verifier4();

    public SETCLIENTID4resok() {
    }

    public SETCLIENTID4resok(long clientid, verifier4 setclientid_confirm) {
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
