package org.tcnfs.it;

import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.GETFH4resok;

/**
 * Handles a client took of a tree's objects (by LOOKUP from the tree's root, in one compound) with each
 * object's fileid, and the check that every one of them still works (PUTFH + GETATTR) and names the same
 * object: what a rollback must preserve.
 */
final class HeldHandles {
    private record Held(byte[] handle, int type, long fileid) {
    }

    private final Map<String, Held> handles;

    private HeldHandles(Map<String, Held> handles) {
        this.handles = handles;
    }

    /** Handles of {@code paths} (relative to the tree whose root handle is {@code root}), in one compound. */
    static HeldHandles take(NfsOps nfs, byte[] root, Iterable<String> paths) throws IOException {
        List<String> order = new ArrayList<>();
        CompoundBuilder c = new CompoundBuilder().tag("take-handles");
        for (String p : paths) {
            c.putfh(root).lookupPath(p).getfh().getattr(FATTR4_TYPE, FATTR4_FILEID);
            order.add(p);
        }
        Map<String, Held> out = new LinkedHashMap<>();
        if (order.isEmpty()) {
            return new HeldHandles(out);
        }
        CompoundResult r = nfs.runOk(c);
        List<GETFH4resok> fhs = r.bodies(OP_GETFH, GETFH4resok.class);
        List<GETATTR4resok> attrs = r.bodies(OP_GETATTR, GETATTR4resok.class);
        for (int i = 0; i < order.size(); i++) {
            Attrs a = Attrs.decode(attrs.get(i).obj_attributes);
            out.put(order.get(i), new Held(fhs.get(i).object.value.clone(), a.type(), a.fileid()));
        }
        return new HeldHandles(out);
    }

    int size() {
        return handles.size();
    }

    /**
     * Fails unless every handle still answers PUTFH + GETATTR, with the type it had.
     *
     * @param what the situation, for the message
     */
    void assertStillWork(NfsOps nfs, String what) throws IOException {
        check(nfs, what, false);
    }

    /**
     * Fails unless every handle still works and names the very object it named (the same fileid): what
     * undo by "move back" (DESIGN.md, operations and their undo) promises, as opposed to re-creating.
     */
    void assertSameObjects(NfsOps nfs, String what) throws IOException {
        check(nfs, what, true);
    }

    private void check(NfsOps nfs, String what, boolean fileids) throws IOException {
        if (handles.isEmpty()) {
            return;
        }
        List<String> order = new ArrayList<>(handles.keySet());
        CompoundBuilder c = new CompoundBuilder().tag("check-handles");
        for (String p : order) {
            c.putfh(handles.get(p).handle()).getattr(FATTR4_TYPE, FATTR4_FILEID);
        }
        CompoundResult r = nfs.run(c);
        if (!r.isOk()) {
            int failed = (r.statuses().size() - 2) / 2;
            throw new AssertionError("the handle of '" + order.get(Math.max(0, failed)) + "' taken before "
                    + what + " no longer works: " + r.status() + " (" + r + ")");
        }
        List<GETATTR4resok> attrs = r.bodies(OP_GETATTR, GETATTR4resok.class);
        StringBuilder wrong = new StringBuilder();
        for (int i = 0; i < order.size(); i++) {
            Attrs now = Attrs.decode(attrs.get(i).obj_attributes);
            Held before = handles.get(order.get(i));
            if (now.type() != before.type()) {
                wrong.append("\n  '").append(order.get(i)).append("' is now of type ").append(now.type())
                        .append(" instead of ").append(before.type());
            } else if (fileids && now.fileid() != before.fileid()) {
                wrong.append("\n  '").append(order.get(i)).append("' now names fileid ").append(now.fileid())
                        .append(" instead of ").append(before.fileid());
            }
        }
        if (wrong.length() > 0) {
            throw new AssertionError("handles taken before " + what + " name other objects:" + wrong);
        }
    }
}
