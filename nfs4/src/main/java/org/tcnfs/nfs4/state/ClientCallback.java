package org.tcnfs.nfs4.state;

import java.util.Objects;

/**
 * Where an NFSv4.0 client's callback service listens (SETCLIENTID's {@code cb_client4} and
 * {@code callback_ident}, RFC 7530 section 16.33). The server records it, and names it in
 * NFS4ERR_CLID_INUSE, but sends no callbacks: it grants no delegations.
 *
 * @param program the callback RPC program number
 * @param netid the network id, such as {@code "tcp"}
 * @param address the universal address, such as {@code "127.0.0.1.3.232"}
 * @param ident the identifier the client wants in callbacks
 */
public record ClientCallback(int program, String netid, String address, int ident) {
    public ClientCallback {
        Objects.requireNonNull(netid, "netid");
        Objects.requireNonNull(address, "address");
    }
}
