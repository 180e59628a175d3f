package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code SETCLIENTID4args} (RFC 7530 section 16.33): who the NFSv4.0 client is, where its callback service
 * listens, and the identifier it wants in callbacks.
 */
public class SETCLIENTID4args implements XdrAble {
    public nfs_client_id4 client = new nfs_client_id4();
    public cb_client4 callback = new cb_client4();
    public int callback_ident;

    public SETCLIENTID4args() {
    }

    public SETCLIENTID4args(nfs_client_id4 client, cb_client4 callback, int callback_ident) {
        this.client = client;
        this.callback = callback;
        this.callback_ident = callback_ident;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        client.xdrEncode(xdr);
        callback.xdrEncode(xdr);
        xdr.xdrEncodeInt(callback_ident);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        client = new nfs_client_id4();
        client.xdrDecode(xdr);
        callback = new cb_client4();
        callback.xdrDecode(xdr);
        callback_ident = xdr.xdrDecodeInt();
    }
}
