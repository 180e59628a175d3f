package org.tcnfs.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsExceptions;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * A COMPOUND as sent and as answered, with accessors by operation.
 *
 * <p>{@link #toString()} lists every operation with its status by RFC name, for assertion messages.
 */
public final class CompoundResult {
    private final COMPOUND4args request;
    private final COMPOUND4res response;

    public CompoundResult(COMPOUND4args request, COMPOUND4res response) {
        this.request = Objects.requireNonNull(request);
        this.response = Objects.requireNonNull(response);
    }

    /** What was sent (with the SEQUENCE a session added). */
    public COMPOUND4args request() {
        return request;
    }

    /** What came back. */
    public COMPOUND4res response() {
        return response;
    }

    /** The compound's status: that of the last operation run. */
    public NfsStatus status() {
        return NfsStatus.of(response.status);
    }

    public boolean isOk() {
        return response.status == 0;
    }

    /**
     * This result if its status is NFS4_OK.
     *
     * @throws NfsException the exception of the status otherwise, naming the operation that failed
     */
    public CompoundResult orThrow() throws NfsException {
        if (!isOk()) {
            throw NfsExceptions.of(status(), toString());
        }
        return this;
    }

    /** The results of the operations run, in order (one per operation up to the first failure). */
    public List<nfs_resop4> results() {
        return List.of(response.resarray);
    }

    /** The status of each operation run, in order. */
    public List<NfsStatus> statuses() {
        List<NfsStatus> out = new ArrayList<>();
        for (nfs_resop4 r : response.resarray) {
            out.add(NfsStatus.of(r.status));
        }
        return out;
    }

    /** The status of the first operation {@code opnum}; fails if it did not run. */
    public NfsStatus statusOf(int opnum) {
        return NfsStatus.of(first(opnum).status);
    }

    /** The result of the first operation {@code opnum}; fails if it did not run. */
    public nfs_resop4 first(int opnum) {
        for (nfs_resop4 r : response.resarray) {
            if (r.resop == opnum) {
                return r;
            }
        }
        throw new IllegalStateException(nfs_opnum4.name(opnum) + " did not run: " + this);
    }

    /** The result of the last operation {@code opnum}; fails if it did not run. */
    public nfs_resop4 last(int opnum) {
        for (int i = response.resarray.length - 1; i >= 0; i--) {
            if (response.resarray[i].resop == opnum) {
                return response.resarray[i];
            }
        }
        throw new IllegalStateException(nfs_opnum4.name(opnum) + " did not run: " + this);
    }

    /** The result body of the first operation {@code opnum}, which must have succeeded. */
    public <T> T body(int opnum, Class<T> type) {
        return bodyOf(first(opnum), type);
    }

    /** The result bodies of every successful operation {@code opnum}, in order. */
    public <T> List<T> bodies(int opnum, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (nfs_resop4 r : response.resarray) {
            if (r.resop == opnum && r.status == 0) {
                out.add(bodyOf(r, type));
            }
        }
        return out;
    }

    private <T> T bodyOf(nfs_resop4 r, Class<T> type) {
        if (r.status != 0 && !type.isInstance(r.body)) {
            throw new IllegalStateException(nfs_opnum4.name(r.resop) + " failed: " + this);
        }
        return type.cast(r.body);
    }

    /** The handle returned by the last GETFH. */
    public byte[] fileHandle() {
        return bodyOf(last(nfs_opnum4.OP_GETFH), GETFH4resok.class).object.value.clone();
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "COMPOUND " + NfsStatus.nameOf(response.status) + " [", "]");
        for (int i = 0; i < request.argarray.length; i++) {
            String op = nfs_opnum4.name(request.argarray[i].argop);
            if (i < response.resarray.length) {
                j.add(op + " " + NfsStatus.nameOf(response.resarray[i].status));
            } else {
                j.add(op + " (not run)");
            }
        }
        if (response.resarray.length > request.argarray.length) {
            j.add("+" + (response.resarray.length - request.argarray.length) + " results more than operations: "
                    + Arrays.toString(Arrays.stream(response.resarray).map(r -> nfs_opnum4.name(r.resop)).toArray()));
        }
        return j.toString();
    }
}
