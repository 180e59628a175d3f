package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code OPEN4resok}: the open stateid, the directory's change info, result flags, the attributes set on
 * create and the delegation.
 */
public class OPEN4resok implements XdrAble {
    /** NFSv4.0 only: the client must confirm the open owner with OPEN_CONFIRM. */
    public static final int OPEN4_RESULT_CONFIRM = 0x00000002;
    /** Byte-range locks have POSIX semantics. */
    public static final int OPEN4_RESULT_LOCKTYPE_POSIX = 0x00000004;
    public static final int OPEN4_RESULT_PRESERVE_UNLINKED = 0x00000008;
    public static final int OPEN4_RESULT_MAY_NOTIFY_LOCK = 0x00000020;

    public stateid4 stateid = new stateid4();
    public change_info4 cinfo = new change_info4();
    public int rflags;
    public bitmap4 attrset = new bitmap4();
    public open_delegation4 delegation = open_delegation4.none();

    public OPEN4resok() {
    }

    public OPEN4resok(stateid4 stateid, change_info4 cinfo, int rflags, bitmap4 attrset,
            open_delegation4 delegation) {
        this.stateid = stateid;
        this.cinfo = cinfo;
        this.rflags = rflags;
        this.attrset = attrset;
        this.delegation = delegation;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        stateid.xdrEncode(xdr);
        cinfo.xdrEncode(xdr);
        xdr.xdrEncodeInt(rflags);
        attrset.xdrEncode(xdr);
        delegation.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        stateid = new stateid4();
        stateid.xdrDecode(xdr);
        cinfo = new change_info4();
        cinfo.xdrDecode(xdr);
        rflags = xdr.xdrDecodeInt();
        attrset = new bitmap4();
        attrset.xdrDecode(xdr);
        delegation = new open_delegation4();
        delegation.xdrDecode(xdr);
    }
}
