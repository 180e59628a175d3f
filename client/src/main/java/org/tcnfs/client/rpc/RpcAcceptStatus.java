package org.tcnfs.client.rpc;

/** {@code accept_stat} of an accepted ONC RPC reply (RFC 5531, section 9). */
public enum RpcAcceptStatus {
    /** RPC executed successfully. */
    SUCCESS(0),
    /** The remote has not exported the program. */
    PROG_UNAVAIL(1),
    /** The remote cannot support the version number. */
    PROG_MISMATCH(2),
    /** The program cannot support the procedure. */
    PROC_UNAVAIL(3),
    /** The procedure cannot decode the parameters. */
    GARBAGE_ARGS(4),
    /** Memory allocation failure or similar. */
    SYSTEM_ERR(5);

    private final int code;

    RpcAcceptStatus(int code) {
        this.code = code;
    }

    /** The value on the wire. */
    public int code() {
        return code;
    }

    /**
     * The status with the given wire value.
     *
     * @throws IllegalArgumentException for a value RFC 5531 does not define
     */
    public static RpcAcceptStatus of(int code) {
        for (RpcAcceptStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown accept_stat " + code);
    }
}
