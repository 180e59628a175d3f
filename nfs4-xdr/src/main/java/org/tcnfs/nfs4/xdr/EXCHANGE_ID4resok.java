package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code EXCHANGE_ID4resok} (RFC 8881 18.35). */
public class EXCHANGE_ID4resok implements XdrAble {
    public long eir_clientid;
    public int eir_sequenceid;
    public int eir_flags;
    public state_protect4_r eir_state_protect = new state_protect4_r();
    public server_owner4 eir_server_owner = new server_owner4();
    public byte[] eir_server_scope = new byte[0];
    /** {@code nfs_impl_id4 eir_server_impl_id<1>}: empty or one element. */
    public nfs_impl_id4[] eir_server_impl_id = new nfs_impl_id4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(eir_clientid);
        xdr.xdrEncodeInt(eir_sequenceid);
        xdr.xdrEncodeInt(eir_flags);
        eir_state_protect.xdrEncode(xdr);
        eir_server_owner.xdrEncode(xdr);
        xdr.xdrEncodeDynamicOpaque(eir_server_scope);
        xdr.xdrEncodeInt(eir_server_impl_id.length);
        for (nfs_impl_id4 id : eir_server_impl_id) {
            id.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        eir_clientid = xdr.xdrDecodeLong();
        eir_sequenceid = xdr.xdrDecodeInt();
        eir_flags = xdr.xdrDecodeInt();
        eir_state_protect = new state_protect4_r();
        eir_state_protect.xdrDecode(xdr);
        eir_server_owner = new server_owner4();
        eir_server_owner.xdrDecode(xdr);
        eir_server_scope = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        eir_server_impl_id = new nfs_impl_id4[XdrSupport.decodeLength(xdr, 1)];
        for (int i = 0; i < eir_server_impl_id.length; i++) {
            eir_server_impl_id[i] = new nfs_impl_id4();
            eir_server_impl_id[i].xdrDecode(xdr);
        }
    }
}
