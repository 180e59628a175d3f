package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code state_protect4_a}: the state protection EXCHANGE_ID asks for, by {@link state_protect_how4}. */
public class state_protect4_a implements XdrAble {
    public int spa_how = state_protect_how4.SP4_NONE;
    /** Set when {@link #spa_how} is {@code SP4_MACH_CRED}. */
    public state_protect_ops4 spa_mach_ops;
    /** Set when {@link #spa_how} is {@code SP4_SSV}. */
    public ssv_sp_parms4 spa_ssv_parms;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(spa_how);
        switch (spa_how) {
            case state_protect_how4.SP4_NONE -> {
            }
            case state_protect_how4.SP4_MACH_CRED -> spa_mach_ops.xdrEncode(xdr);
            case state_protect_how4.SP4_SSV -> spa_ssv_parms.xdrEncode(xdr);
            default -> throw new MalformedXdrException("state_protect_how4 " + spa_how);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        spa_how = xdr.xdrDecodeInt();
        spa_mach_ops = null;
        spa_ssv_parms = null;
        switch (spa_how) {
            case state_protect_how4.SP4_NONE -> {
            }
            case state_protect_how4.SP4_MACH_CRED -> {
                spa_mach_ops = new state_protect_ops4();
                spa_mach_ops.xdrDecode(xdr);
            }
            case state_protect_how4.SP4_SSV -> {
                spa_ssv_parms = new ssv_sp_parms4();
                spa_ssv_parms.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("state_protect_how4 " + spa_how);
        }
    }
}
