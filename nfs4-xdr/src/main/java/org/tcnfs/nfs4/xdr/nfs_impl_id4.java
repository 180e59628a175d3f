package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code nfs_impl_id4}: the name, domain and build date of an implementation. */
public class nfs_impl_id4 implements XdrAble {
    public String nii_domain = "";
    public String nii_name = "";
    public nfstime4 nii_date = new nfstime4();

    public nfs_impl_id4() {
    }

    public nfs_impl_id4(String nii_domain, String nii_name, nfstime4 nii_date) {
        this.nii_domain = nii_domain;
        this.nii_name = nii_name;
        this.nii_date = nii_date;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, nii_domain);
        XdrSupport.encodeString(xdr, nii_name);
        nii_date.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        // utf8str_cis and utf8str_cs (RFC 8881 18.35.1): null when not valid UTF-8 (EXCHANGE_ID: NFS4ERR_INVAL)
        nii_domain = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        nii_name = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        nii_date = new nfstime4();
        nii_date.xdrDecode(xdr);
    }
}
