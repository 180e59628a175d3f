package org.tcnfs.txn;

import java.io.IOException;
import java.time.Duration;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * A transaction's steps planned, locked and prepared the way {@link TransactionHook} does it, for tests without the
 * wire.
 */
final class PreparedSteps {
    private PreparedSteps() {
    }

    /** Plans {@code args} on export "/" of {@code table}, locks and prepares it, its steps in {@code steps[0]}. */
    static Transaction prepare(TransactionServices services, TxnExport export, HandleTable table, LockManager manager,
            COMPOUND4args args, TransactionSteps[] steps) throws IOException {
        TxnPlan plan = new CompoundPlanner().plan(args, new HandleTableResolver(table, "/"));
        LockSet locks = manager.acquire(plan.lockRequests(), Duration.ofSeconds(1));
        steps[0] = new TransactionSteps(services, export,
                new UndoExecutor(export.root(), export.backups(), CrashPoints.NONE, "mid-undo-"), args, plan, locks);
        Transaction t = new Transaction(steps[0]::label, steps[0]);
        t.locked(locks);
        steps[0].prepare();
        t.prepared();
        return t;
    }
}
