package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code CREATE4args}: create a non-regular object called {@link #objname} in the current directory.
 *
 * <p>{@link #objname} is a {@code component4}, decoded strictly: {@code null} when the bytes are not valid
 * UTF-8 (the operation answers NFS4ERR_INVAL).
 */
public class CREATE4args implements XdrAble {
    public createtype4 objtype = new createtype4();
    public String objname = "";
    public fattr4 createattrs = new fattr4();

    public CREATE4args() {
    }

    public CREATE4args(createtype4 objtype, String objname, fattr4 createattrs) {
        this.objtype = objtype;
        this.objname = objname;
        this.createattrs = createattrs;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        objtype.xdrEncode(xdr);
        XdrSupport.encodeString(xdr, objname);
        createattrs.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        objtype = new createtype4();
        objtype.xdrDecode(xdr);
        objname = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
        createattrs = new fattr4();
        createattrs.xdrDecode(xdr);
    }
}
