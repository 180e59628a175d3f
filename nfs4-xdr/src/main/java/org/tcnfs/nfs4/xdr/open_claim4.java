package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code open_claim4}: which file OPEN opens, by {@link open_claim_type4}: a name in the current directory
 * ({@link #file}, CLAIM_NULL), the current file handle (CLAIM_FH, CLAIM_DELEG_PREV_FH), a reclaim after a
 * restart ({@link #delegate_type}, CLAIM_PREVIOUS) or a delegation's claims ({@link #delegate_cur_info},
 * {@link #file_delegate_prev}, {@link #oc_delegate_stateid}). Names are decoded strictly: {@code null} when
 * the bytes are not valid UTF-8. An unknown claim type does not decode.
 */
public class open_claim4 implements XdrAble {
    public int claim;
    public String file;
    public int delegate_type;
    public open_claim_delegate_cur4 delegate_cur_info;
    public String file_delegate_prev;
    public stateid4 oc_delegate_stateid;

    public open_claim4() {
    }

    /** CLAIM_NULL: {@code name} in the current directory. */
    public static open_claim4 byName(String name) {
        open_claim4 c = new open_claim4();
        c.claim = open_claim_type4.CLAIM_NULL;
        c.file = name;
        return c;
    }

    /** CLAIM_FH: the current file handle. */
    public static open_claim4 byFileHandle() {
        open_claim4 c = new open_claim4();
        c.claim = open_claim_type4.CLAIM_FH;
        return c;
    }

    /** CLAIM_PREVIOUS: reclaim of an open held before a restart, with the delegation type held then. */
    public static open_claim4 previous(int delegateType) {
        open_claim4 c = new open_claim4();
        c.claim = open_claim_type4.CLAIM_PREVIOUS;
        c.delegate_type = delegateType;
        return c;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(claim);
        switch (claim) {
            case open_claim_type4.CLAIM_NULL -> XdrSupport.encodeString(xdr, file);
            case open_claim_type4.CLAIM_PREVIOUS -> xdr.xdrEncodeInt(delegate_type);
            case open_claim_type4.CLAIM_DELEGATE_CUR -> delegate_cur_info.xdrEncode(xdr);
            case open_claim_type4.CLAIM_DELEGATE_PREV -> XdrSupport.encodeString(xdr, file_delegate_prev);
            case open_claim_type4.CLAIM_FH, open_claim_type4.CLAIM_DELEG_PREV_FH -> {
            }
            case open_claim_type4.CLAIM_DELEG_CUR_FH -> oc_delegate_stateid.xdrEncode(xdr);
            default -> throw new MalformedXdrException("open_claim_type4 " + claim);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        claim = xdr.xdrDecodeInt();
        file = null;
        delegate_type = 0;
        delegate_cur_info = null;
        file_delegate_prev = null;
        oc_delegate_stateid = null;
        switch (claim) {
            case open_claim_type4.CLAIM_NULL -> file = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
            case open_claim_type4.CLAIM_PREVIOUS -> delegate_type = xdr.xdrDecodeInt();
            case open_claim_type4.CLAIM_DELEGATE_CUR -> {
                delegate_cur_info = new open_claim_delegate_cur4();
                delegate_cur_info.xdrDecode(xdr);
            }
            case open_claim_type4.CLAIM_DELEGATE_PREV ->
                    file_delegate_prev = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
            case open_claim_type4.CLAIM_FH, open_claim_type4.CLAIM_DELEG_PREV_FH -> {
            }
            case open_claim_type4.CLAIM_DELEG_CUR_FH -> {
                oc_delegate_stateid = new stateid4();
                oc_delegate_stateid.xdrDecode(xdr);
            }
            default -> throw new MalformedXdrException("open_claim_type4 " + claim);
        }
    }
}
