package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code OPEN4args}: open (and maybe create) a file for an open owner with a share reservation.
 *
 * <p>{@link #seqid} is the NFSv4.0 open-owner sequence id (ignored in NFSv4.1). {@link #share_access} holds
 * the access bits and, in NFSv4.1, the delegation wishes ({@code OPEN4_SHARE_ACCESS_WANT_*}).
 */
public class OPEN4args implements XdrAble {
    public static final int OPEN4_SHARE_ACCESS_READ = 0x00000001;
    public static final int OPEN4_SHARE_ACCESS_WRITE = 0x00000002;
    public static final int OPEN4_SHARE_ACCESS_BOTH = 0x00000003;
    public static final int OPEN4_SHARE_DENY_NONE = 0x00000000;
    public static final int OPEN4_SHARE_DENY_READ = 0x00000001;
    public static final int OPEN4_SHARE_DENY_WRITE = 0x00000002;
    public static final int OPEN4_SHARE_DENY_BOTH = 0x00000003;
    /** NFSv4.1: the delegation wish in {@link #share_access}. */
    public static final int OPEN4_SHARE_ACCESS_WANT_DELEG_MASK = 0xFF00;
    public static final int OPEN4_SHARE_ACCESS_WANT_NO_PREFERENCE = 0x0000;
    public static final int OPEN4_SHARE_ACCESS_WANT_READ_DELEG = 0x0100;
    public static final int OPEN4_SHARE_ACCESS_WANT_WRITE_DELEG = 0x0200;
    public static final int OPEN4_SHARE_ACCESS_WANT_ANY_DELEG = 0x0300;
    public static final int OPEN4_SHARE_ACCESS_WANT_NO_DELEG = 0x0400;
    public static final int OPEN4_SHARE_ACCESS_WANT_CANCEL = 0x0500;
    public static final int OPEN4_SHARE_ACCESS_WANT_SIGNAL_DELEG_WHEN_RESRC_AVAIL = 0x10000;
    public static final int OPEN4_SHARE_ACCESS_WANT_PUSH_DELEG_WHEN_UNCONTENDED = 0x20000;

    public int seqid;
    public int share_access;
    public int share_deny;
    public open_owner4 owner = new open_owner4();
    public openflag4 openhow = openflag4.noCreate();
    public open_claim4 claim = new open_claim4();

    public OPEN4args() {
    }

    public OPEN4args(int seqid, int share_access, int share_deny, open_owner4 owner, openflag4 openhow,
            open_claim4 claim) {
        this.seqid = seqid;
        this.share_access = share_access;
        this.share_deny = share_deny;
        this.owner = owner;
        this.openhow = openhow;
        this.claim = claim;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(seqid);
        xdr.xdrEncodeInt(share_access);
        xdr.xdrEncodeInt(share_deny);
        owner.xdrEncode(xdr);
        openhow.xdrEncode(xdr);
        claim.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        seqid = xdr.xdrDecodeInt();
        share_access = xdr.xdrDecodeInt();
        share_deny = xdr.xdrDecodeInt();
        owner = new open_owner4();
        owner.xdrDecode(xdr);
        openhow = new openflag4();
        openhow.xdrDecode(xdr);
        claim = new open_claim4();
        claim.xdrDecode(xdr);
    }
}
