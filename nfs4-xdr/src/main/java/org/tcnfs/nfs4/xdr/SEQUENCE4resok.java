package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code SEQUENCE4resok} (RFC 8881 18.46), with the {@code SEQ4_STATUS_*} constants. */
public class SEQUENCE4resok implements XdrAble {
    public static final int SEQ4_STATUS_CB_PATH_DOWN = 0x00000001;
    public static final int SEQ4_STATUS_CB_GSS_CONTEXTS_EXPIRING = 0x00000002;
    public static final int SEQ4_STATUS_CB_GSS_CONTEXTS_EXPIRED = 0x00000004;
    public static final int SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED = 0x00000008;
    public static final int SEQ4_STATUS_EXPIRED_SOME_STATE_REVOKED = 0x00000010;
    public static final int SEQ4_STATUS_ADMIN_STATE_REVOKED = 0x00000020;
    public static final int SEQ4_STATUS_RECALLABLE_STATE_REVOKED = 0x00000040;
    public static final int SEQ4_STATUS_LEASE_MOVED = 0x00000080;
    public static final int SEQ4_STATUS_RESTART_RECLAIM_NEEDED = 0x00000100;
    public static final int SEQ4_STATUS_CB_PATH_DOWN_SESSION = 0x00000200;
    public static final int SEQ4_STATUS_BACKCHANNEL_FAULT = 0x00000400;
    public static final int SEQ4_STATUS_DEVID_CHANGED = 0x00000800;
    public static final int SEQ4_STATUS_DEVID_DELETED = 0x00001000;

    public sessionid4 sr_sessionid = new sessionid4();
    public int sr_sequenceid;
    public int sr_slotid;
    public int sr_highest_slotid;
    public int sr_target_highest_slotid;
    public int sr_status_flags;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        sr_sessionid.xdrEncode(xdr);
        xdr.xdrEncodeInt(sr_sequenceid);
        xdr.xdrEncodeInt(sr_slotid);
        xdr.xdrEncodeInt(sr_highest_slotid);
        xdr.xdrEncodeInt(sr_target_highest_slotid);
        xdr.xdrEncodeInt(sr_status_flags);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        sr_sessionid = new sessionid4();
        sr_sessionid.xdrDecode(xdr);
        sr_sequenceid = xdr.xdrDecodeInt();
        sr_slotid = xdr.xdrDecodeInt();
        sr_highest_slotid = xdr.xdrDecodeInt();
        sr_target_highest_slotid = xdr.xdrDecodeInt();
        sr_status_flags = xdr.xdrDecodeInt();
    }
}
