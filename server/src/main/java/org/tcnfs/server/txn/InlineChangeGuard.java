package org.tcnfs.server.txn;

import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.proto.ObjectHandle;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;

/**
 * Says whether a short plain compound that changes something may run on the network thread (issue 16, h-inline2;
 * which compounds ask: {@code InlineCompounds} of the RPC layer): only if, run now, it flushes and commits nothing
 * durably before its reply and waits for no lock. That is when
 * <ul>
 *   <li>every PUTFH handle of it is a known object (a cached handle-table read) of an export whose rule for the
 *       client is {@code async} and does not make the compound a transaction ({@code txn=always} writes a record and
 *       backups); a handle not in the table (forged, stale, of the pseudo root) goes to a worker, which answers
 *       it;</li>
 *   <li>the handle table keeps its rows as pending rows and its directory syncs in the late queue
 *       ({@link HandleTable#keepsLateWork}, with room for {@value #ROOM} more): at the bounds a compound commits its
 *       rows lazily (a flush) or syncs its directory itself;</li>
 * </ul>
 * That no lock key is held or wanted and no compound released early is still flushing is asked of every inline
 * compound, read or change ({@code NfsServer.Builder.inlineAllowed}, {@link TransactionWiring}).
 * A reload that changes an export's rules replaces its entry here ({@link #put}) as it does the hook's; a compound
 * judged in the instant before runs with the rules it was judged by.
 */
final class InlineChangeGuard implements NfsServer.InlineChanges {
    /**
     * Room asked for in the pending rows and the late queue: more than the entries of the at most 8 operations of
     * an inline compound, of which one runs at a time while the workers are idle.
     */
    static final int ROOM = 256;

    private final HandleTable handles;
    /** The exports by export id; replaced entries on reload. */
    private final Map<String, Export> exports = new ConcurrentHashMap<>();

    InlineChangeGuard(HandleTable handles) {
        this.handles = handles;
    }

    /** Serves {@code export} (export id {@code exportId}) with its current rules. */
    void put(String exportId, Export export) {
        exports.put(exportId, export);
    }

    @Override
    public boolean allow(COMPOUND4args args, InetAddress client) {
        if (!handles.keepsLateWork(ROOM)) {
            return false;
        }
        boolean any = false;
        for (nfs_argop4 op : args.argarray) {
            if (op.argop != nfs_opnum4.OP_PUTFH) {
                continue;
            }
            if (!(op.args instanceof PUTFH4args putfh) || putfh.object == null || putfh.object.value == null
                    || putfh.object.value.length != ObjectHandle.LENGTH || !asyncAndPlain(putfh.object.value, client)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private boolean asyncAndPlain(byte[] handle, InetAddress client) {
        Optional<String> exportId;
        try {
            // answered from the table's read cache while it does not change: no snapshot per compound
            exportId = handles.exportIdOf(Nfh.of(handle));
        } catch (RuntimeException e) {
            return false; // the table closing at shutdown, say: a worker runs the compound and answers what it meets
        }
        Export export = exportId.map(exports::get).orElse(null);
        Optional<ExportOptions> options = export == null ? Optional.empty() : export.optionsFor(client);
        return options.isPresent() && options.get().async() && options.get().txn() != TxnPolicy.ALWAYS;
    }
}
