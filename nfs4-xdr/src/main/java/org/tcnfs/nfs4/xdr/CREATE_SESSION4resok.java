package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code CREATE_SESSION4resok} (RFC 8881 18.36). */
public class CREATE_SESSION4resok implements XdrAble {
    public sessionid4 csr_sessionid = new sessionid4();
    public int csr_sequence;
    public int csr_flags;
    public channel_attrs4 csr_fore_chan_attrs = new channel_attrs4();
    public channel_attrs4 csr_back_chan_attrs = new channel_attrs4();

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        csr_sessionid.xdrEncode(xdr);
        xdr.xdrEncodeInt(csr_sequence);
        xdr.xdrEncodeInt(csr_flags);
        csr_fore_chan_attrs.xdrEncode(xdr);
        csr_back_chan_attrs.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        csr_sessionid = new sessionid4();
        csr_sessionid.xdrDecode(xdr);
        csr_sequence = xdr.xdrDecodeInt();
        csr_flags = xdr.xdrDecodeInt();
        csr_fore_chan_attrs = new channel_attrs4();
        csr_fore_chan_attrs.xdrDecode(xdr);
        csr_back_chan_attrs = new channel_attrs4();
        csr_back_chan_attrs.xdrDecode(xdr);
    }
}
