package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code creatverfattr}: the verifier and the attributes of an EXCLUSIVE4_1 create. */
public class creatverfattr implements XdrAble {
    public verifier4 cva_verf = new verifier4();
    public fattr4 cva_attrs = new fattr4();

    public creatverfattr() {
    }

    public creatverfattr(verifier4 cva_verf, fattr4 cva_attrs) {
        this.cva_verf = cva_verf;
        this.cva_attrs = cva_attrs;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        cva_verf.xdrEncode(xdr);
        cva_attrs.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cva_verf = new verifier4();
        cva_verf.xdrDecode(xdr);
        cva_attrs = new fattr4();
        cva_attrs.xdrDecode(xdr);
    }
}
