package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code dirlist4}: the entries of a READDIR reply (on the wire a linked list, each entry preceded by
 * TRUE and the list closed by FALSE) and whether they reach the end of the directory.
 */
public class dirlist4 implements XdrAble {
    /** The most entries decoded from one reply. */
    public static final int MAX_ENTRIES = 1 << 20;

    public entry4[] entries = new entry4[0];
    public boolean eof;

    public dirlist4() {
    }

    public dirlist4(entry4[] entries, boolean eof) {
        this.entries = entries;
        this.eof = eof;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        for (entry4 e : entries) {
            xdr.xdrEncodeBoolean(true);
            e.xdrEncode(xdr);
        }
        xdr.xdrEncodeBoolean(false);
        xdr.xdrEncodeBoolean(eof);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        List<entry4> list = new ArrayList<>();
        while (XdrSupport.decodeBoolean(xdr)) {
            if (list.size() >= MAX_ENTRIES) {
                throw new MalformedXdrException("more than " + MAX_ENTRIES + " directory entries");
            }
            entry4 e = new entry4();
            e.xdrDecode(xdr);
            list.add(e);
        }
        entries = list.toArray(new entry4[0]);
        eof = XdrSupport.decodeBoolean(xdr);
    }
}
