package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code open_delegation4}: the delegation an OPEN granted. This server never grants one, so only
 * OPEN_DELEGATE_NONE and OPEN_DELEGATE_NONE_EXT (with {@link #od_whynone}) are carried; the READ and WRITE
 * arms (which hold an ACE) are refused as malformed in both directions.
 */
public class open_delegation4 implements XdrAble {
    public int delegation_type = open_delegation_type4.OPEN_DELEGATE_NONE;
    public open_none_delegation4 od_whynone;

    public open_delegation4() {
    }

    /** OPEN_DELEGATE_NONE. */
    public static open_delegation4 none() {
        return new open_delegation4();
    }

    /** OPEN_DELEGATE_NONE_EXT with the reason {@code why} ({@link why_no_delegation4}). */
    public static open_delegation4 noneBecause(int why) {
        open_delegation4 d = new open_delegation4();
        d.delegation_type = open_delegation_type4.OPEN_DELEGATE_NONE_EXT;
        d.od_whynone = new open_none_delegation4(why);
        return d;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(delegation_type);
        switch (delegation_type) {
            case open_delegation_type4.OPEN_DELEGATE_NONE -> {
            }
            case open_delegation_type4.OPEN_DELEGATE_NONE_EXT -> od_whynone.xdrEncode(xdr);
            default -> throw new MalformedXdrException("delegations are not supported: " + delegation_type);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        delegation_type = xdr.xdrDecodeInt();
        od_whynone = null;
        switch (delegation_type) {
            case open_delegation_type4.OPEN_DELEGATE_NONE -> {
            }
            case open_delegation_type4.OPEN_DELEGATE_NONE_EXT -> {
                od_whynone = new open_none_delegation4();
                od_whynone.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("delegations are not supported: " + delegation_type);
        }
    }
}
