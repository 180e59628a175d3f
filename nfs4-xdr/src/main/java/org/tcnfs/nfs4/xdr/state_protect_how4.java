package org.tcnfs.nfs4.xdr;

/** {@code state_protect_how4}: how EXCHANGE_ID asks to protect state (RFC 8881 18.35). */
public final class state_protect_how4 {
    public static final int SP4_NONE = 0;
    public static final int SP4_MACH_CRED = 1;
    public static final int SP4_SSV = 2;

    private state_protect_how4() {
    }
}
