package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code state_protect4_r}: the state protection EXCHANGE_ID grants, by {@link state_protect_how4}. */
public class state_protect4_r implements XdrAble {
    public int spr_how = state_protect_how4.SP4_NONE;
    /** Set when {@link #spr_how} is {@code SP4_MACH_CRED}. */
    public state_protect_ops4 spr_mach_ops;
    /** Set when {@link #spr_how} is {@code SP4_SSV}. */
    public ssv_prot_info4 spr_ssv_info;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(spr_how);
        switch (spr_how) {
            case state_protect_how4.SP4_NONE -> {
            }
            case state_protect_how4.SP4_MACH_CRED -> spr_mach_ops.xdrEncode(xdr);
            case state_protect_how4.SP4_SSV -> spr_ssv_info.xdrEncode(xdr);
            default -> throw new MalformedXdrException("state_protect_how4 " + spr_how);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        spr_how = xdr.xdrDecodeInt();
        spr_mach_ops = null;
        spr_ssv_info = null;
        switch (spr_how) {
            case state_protect_how4.SP4_NONE -> {
            }
            case state_protect_how4.SP4_MACH_CRED -> {
                spr_mach_ops = new state_protect_ops4();
                spr_mach_ops.xdrDecode(xdr);
            }
            case state_protect_how4.SP4_SSV -> {
                spr_ssv_info = new ssv_prot_info4();
                spr_ssv_info.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("state_protect_how4 " + spr_how);
        }
    }
}
