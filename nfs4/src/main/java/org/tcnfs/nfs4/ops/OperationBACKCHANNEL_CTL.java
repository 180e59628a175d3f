package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.status.OpNotInSessionException;
import org.tcnfs.nfs4.xdr.BACKCHANNEL_CTL4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * BACKCHANNEL_CTL (RFC 8881 18.33): records the session's new callback program. The security parameters
 * are accepted; the server sends no callbacks.
 */
public final class OperationBACKCHANNEL_CTL implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        BACKCHANNEL_CTL4args args = (BACKCHANNEL_CTL4args) op.args;
        int program = args.bca_cb_program;

        NfsSession session = context.session();
        if (session == null) {
            throw new OpNotInSessionException("BACKCHANNEL_CTL needs a session");
        }
        session.setCallbackProgram(program);
    }
}
