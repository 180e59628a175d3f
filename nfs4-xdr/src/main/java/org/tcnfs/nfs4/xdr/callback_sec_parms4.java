package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code callback_sec_parms4}: how the server would authenticate itself on the back channel. */
public class callback_sec_parms4 implements XdrAble {
    public static final int AUTH_NONE = 0;
    public static final int AUTH_SYS = 1;
    public static final int RPCSEC_GSS = 6;
    /** The most entries of a {@code callback_sec_parms4<>} list the server decodes. */
    public static final int MAX_LIST = 16;

    public int cb_secflavor = AUTH_NONE;
    /** Set when {@link #cb_secflavor} is {@link #AUTH_SYS}. */
    public authsys_parms cbsp_sys_cred;
    /** Set when {@link #cb_secflavor} is {@link #RPCSEC_GSS}. */
    public gss_cb_handles4 cbsp_gss_handles;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(cb_secflavor);
        switch (cb_secflavor) {
            case AUTH_NONE -> {
            }
            case AUTH_SYS -> cbsp_sys_cred.xdrEncode(xdr);
            case RPCSEC_GSS -> cbsp_gss_handles.xdrEncode(xdr);
            default -> throw new MalformedXdrException("callback security flavor " + cb_secflavor);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cb_secflavor = xdr.xdrDecodeInt();
        cbsp_sys_cred = null;
        cbsp_gss_handles = null;
        switch (cb_secflavor) {
            case AUTH_NONE -> {
            }
            case AUTH_SYS -> {
                cbsp_sys_cred = new authsys_parms();
                cbsp_sys_cred.xdrDecode(xdr);
            }
            case RPCSEC_GSS -> {
                cbsp_gss_handles = new gss_cb_handles4();
                cbsp_gss_handles.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("callback security flavor " + cb_secflavor);
        }
    }

    static void encodeList(XdrEncodingStream xdr, callback_sec_parms4[] list) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(list.length);
        for (callback_sec_parms4 p : list) {
            p.xdrEncode(xdr);
        }
    }

    static callback_sec_parms4[] decodeList(XdrDecodingStream xdr) throws OncRpcException, IOException {
        callback_sec_parms4[] list = new callback_sec_parms4[XdrSupport.decodeLength(xdr, MAX_LIST)];
        for (int i = 0; i < list.length; i++) {
            list[i] = new callback_sec_parms4();
            list[i].xdrDecode(xdr);
        }
        return list;
    }
}
