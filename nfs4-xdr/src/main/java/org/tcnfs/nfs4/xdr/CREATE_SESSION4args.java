package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code CREATE_SESSION4args} (RFC 8881 18.36), with the {@code CREATE_SESSION4_FLAG_*} constants. */
public class CREATE_SESSION4args implements XdrAble {
    public static final int CREATE_SESSION4_FLAG_PERSIST = 0x00000001;
    public static final int CREATE_SESSION4_FLAG_CONN_BACK_CHAN = 0x00000002;
    public static final int CREATE_SESSION4_FLAG_CONN_RDMA = 0x00000004;

    public long csa_clientid;
    public int csa_sequence;
    public int csa_flags;
    public channel_attrs4 csa_fore_chan_attrs = new channel_attrs4();
    public channel_attrs4 csa_back_chan_attrs = new channel_attrs4();
    public int csa_cb_program;
    public callback_sec_parms4[] csa_sec_parms = new callback_sec_parms4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(csa_clientid);
        xdr.xdrEncodeInt(csa_sequence);
        xdr.xdrEncodeInt(csa_flags);
        csa_fore_chan_attrs.xdrEncode(xdr);
        csa_back_chan_attrs.xdrEncode(xdr);
        xdr.xdrEncodeInt(csa_cb_program);
        callback_sec_parms4.encodeList(xdr, csa_sec_parms);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        csa_clientid = xdr.xdrDecodeLong();
        csa_sequence = xdr.xdrDecodeInt();
        csa_flags = xdr.xdrDecodeInt();
        csa_fore_chan_attrs = new channel_attrs4();
        csa_fore_chan_attrs.xdrDecode(xdr);
        csa_back_chan_attrs = new channel_attrs4();
        csa_back_chan_attrs.xdrDecode(xdr);
        csa_cb_program = xdr.xdrDecodeInt();
        csa_sec_parms = callback_sec_parms4.decodeList(xdr);
    }
}
