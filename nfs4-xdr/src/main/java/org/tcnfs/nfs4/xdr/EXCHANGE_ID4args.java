package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code EXCHANGE_ID4args} (RFC 8881 18.35), with the {@code EXCHGID4_FLAG_*} constants. */
public class EXCHANGE_ID4args implements XdrAble {
    public static final int EXCHGID4_FLAG_SUPP_MOVED_REFER = 0x00000001;
    public static final int EXCHGID4_FLAG_SUPP_MOVED_MIGR = 0x00000002;
    public static final int EXCHGID4_FLAG_SUPP_FENCE_OPS = 0x00000004;
    public static final int EXCHGID4_FLAG_BIND_PRINC_STATEID = 0x00000100;
    public static final int EXCHGID4_FLAG_USE_NON_PNFS = 0x00010000;
    public static final int EXCHGID4_FLAG_USE_PNFS_MDS = 0x00020000;
    public static final int EXCHGID4_FLAG_USE_PNFS_DS = 0x00040000;
    public static final int EXCHGID4_FLAG_MASK_PNFS = 0x00070000;
    public static final int EXCHGID4_FLAG_UPD_CONFIRMED_REC_A = 0x40000000;
    public static final int EXCHGID4_FLAG_CONFIRMED_R = 0x80000000;

    public client_owner4 eia_clientowner = new client_owner4();
    public int eia_flags;
    public state_protect4_a eia_state_protect = new state_protect4_a();
    /** {@code nfs_impl_id4 eia_client_impl_id<1>}: empty or one element. */
    public nfs_impl_id4[] eia_client_impl_id = new nfs_impl_id4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        eia_clientowner.xdrEncode(xdr);
        xdr.xdrEncodeInt(eia_flags);
        eia_state_protect.xdrEncode(xdr);
        xdr.xdrEncodeInt(eia_client_impl_id.length);
        for (nfs_impl_id4 id : eia_client_impl_id) {
            id.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        eia_clientowner = new client_owner4();
        eia_clientowner.xdrDecode(xdr);
        eia_flags = xdr.xdrDecodeInt();
        eia_state_protect = new state_protect4_a();
        eia_state_protect.xdrDecode(xdr);
        eia_client_impl_id = new nfs_impl_id4[XdrSupport.decodeLength(xdr, 1)];
        for (int i = 0; i < eia_client_impl_id.length; i++) {
            eia_client_impl_id[i] = new nfs_impl_id4();
            eia_client_impl_id[i].xdrDecode(xdr);
        }
    }
}
