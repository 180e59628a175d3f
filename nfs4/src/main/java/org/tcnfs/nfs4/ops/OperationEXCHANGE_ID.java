package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.EXCHANGE_ID4args.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ClientOwner;
import org.tcnfs.nfs4.state.ExchangeIdMode;
import org.tcnfs.nfs4.state.ExchangeIdResult;
import org.tcnfs.nfs4.state.ServerOwner;
import org.tcnfs.nfs4.status.EncrAlgUnsuppException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_impl_id4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.nfstime4;
import org.tcnfs.nfs4.xdr.server_owner4;
import org.tcnfs.nfs4.xdr.state_protect4_r;
import org.tcnfs.nfs4.xdr.state_protect_how4;

/**
 * EXCHANGE_ID (RFC 8881 18.35): finds or creates the client record of {@code eia_clientowner}, following
 * the case analysis of 18.35.5 (see {@link org.tcnfs.nfs4.state.StateHandler#exchangeId}).
 *
 * <p>Only SP4_NONE state protection is offered: SP4_MACH_CRED is NFS4ERR_NOTSUPP (it needs RPCSEC_GSS,
 * which this server does not speak) and SP4_SSV is NFS4ERR_ENCR_ALG_UNSUPP (no algorithm offered is
 * supported). Undefined flags and a client-set EXCHGID4_FLAG_CONFIRMED_R are NFS4ERR_INVAL; so is
 * EXCHGID4_FLAG_SUPP_FENCE_OPS below minor version 2, since RFC 7862 (NFSv4.2) defines that bit and an NFSv4.1
 * server must treat it as undefined (RFC 8881 18.35.3). The server is a non-pNFS server
 * ({@code EXCHGID4_FLAG_USE_NON_PNFS}); the principal is the caller's AUTH_SYS uid.
 *
 * <p>The client table is bounded ({@link org.tcnfs.nfs4.state.SessionLimits#maxClients()}): when it is full
 * the unconfirmed record renewed longest ago is dropped to make room, and when every record is confirmed a
 * new client is NFS4ERR_DELAY (18.35 allows neither NFS4ERR_NOSPC nor NFS4ERR_RESOURCE).
 */
public final class OperationEXCHANGE_ID implements NfsOperation {
    /** The flags an NFSv4.1 client may send (RFC 8881 18.35.1). */
    static final int CLIENT_FLAGS = EXCHGID4_FLAG_SUPP_MOVED_REFER | EXCHGID4_FLAG_SUPP_MOVED_MIGR
            | EXCHGID4_FLAG_BIND_PRINC_STATEID | EXCHGID4_FLAG_MASK_PNFS | EXCHGID4_FLAG_UPD_CONFIRMED_REC_A;

    /** The flags an NFSv4.2 client may send: RFC 7862 adds EXCHGID4_FLAG_SUPP_FENCE_OPS. */
    static final int CLIENT_FLAGS_V42 = CLIENT_FLAGS | EXCHGID4_FLAG_SUPP_FENCE_OPS;

    /** The implementation this server reports in {@code eir_server_impl_id}. */
    static final String IMPL_DOMAIN = "tcnfs.org";
    static final String IMPL_NAME = "tcnfs";

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        EXCHANGE_ID4args args = (EXCHANGE_ID4args) op.args;
        ClientOwner owner = ClientOwner.of(args.eia_clientowner);
        int flags = args.eia_flags;
        ExchangeIdMode mode = (flags & EXCHGID4_FLAG_UPD_CONFIRMED_REC_A) != 0 ? ExchangeIdMode.UPDATE
                : ExchangeIdMode.CREATE;

        for (nfs_impl_id4 id : args.eia_client_impl_id) {
            if (id.nii_domain == null || id.nii_name == null) {
                throw new InvalException("client implementation domain or name is not valid UTF-8");
            }
        }
        int allowed = context.minorVersion() >= 2 ? CLIENT_FLAGS_V42 : CLIENT_FLAGS;
        if ((flags & ~allowed) != 0) {
            throw new InvalException("undefined EXCHANGE_ID flags 0x" + Integer.toHexString(flags & ~allowed));
        }
        switch (args.eia_state_protect.spa_how) {
            case state_protect_how4.SP4_NONE -> {
            }
            case state_protect_how4.SP4_MACH_CRED -> throw new NotSuppException("SP4_MACH_CRED needs RPCSEC_GSS");
            case state_protect_how4.SP4_SSV -> throw new EncrAlgUnsuppException("SP4_SSV is not supported");
            default -> throw new InvalException("state protection " + args.eia_state_protect.spa_how);
        }

        ExchangeIdResult found = context.server().state().exchangeId(owner, context.credential().uid(), mode,
                context.clientAddress());
        ServerOwner server = context.server().state().serverOwner();

        EXCHANGE_ID4resok res = new EXCHANGE_ID4resok();
        res.eir_clientid = found.client().clientId();
        res.eir_sequenceid = found.sequenceId();
        res.eir_flags = EXCHGID4_FLAG_USE_NON_PNFS | (found.confirmed() ? EXCHGID4_FLAG_CONFIRMED_R : 0);
        res.eir_state_protect = new state_protect4_r();
        res.eir_server_owner = new server_owner4(0, server.majorId().getBytes(StandardCharsets.UTF_8));
        res.eir_server_scope = server.scope().getBytes(StandardCharsets.UTF_8);
        res.eir_server_impl_id = new nfs_impl_id4[] {new nfs_impl_id4(IMPL_DOMAIN, implName(), new nfstime4())};
        result.body = res;
    }

    private static String implName() {
        String version = OperationEXCHANGE_ID.class.getPackage().getImplementationVersion();
        return version == null ? IMPL_NAME : IMPL_NAME + " " + version;
    }
}
