package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code openflag4}: OPEN4_CREATE with its {@link createhow4}, or OPEN4_NOCREATE (any other value). */
public class openflag4 implements XdrAble {
    public int opentype;
    public createhow4 how;

    public openflag4() {
    }

    /** OPEN4_NOCREATE. */
    public static openflag4 noCreate() {
        openflag4 flag = new openflag4();
        flag.opentype = opentype4.OPEN4_NOCREATE;
        return flag;
    }

    /** OPEN4_CREATE with {@code how}. */
    public static openflag4 create(createhow4 how) {
        openflag4 flag = new openflag4();
        flag.opentype = opentype4.OPEN4_CREATE;
        flag.how = how;
        return flag;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(opentype);
        if (opentype == opentype4.OPEN4_CREATE) {
            how.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        opentype = xdr.xdrDecodeInt();
        how = null;
        if (opentype == opentype4.OPEN4_CREATE) {
            how = new createhow4();
            how.xdrDecode(xdr);
        }
    }
}
