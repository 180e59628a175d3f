package org.tcnfs.txn.handles;

import java.util.Objects;
import org.lmdbjava.Dbi;

/**
 * A named key-value table that lives in the handle table's LMDB environment, so that other records (the
 * transaction layer's recovery records) can change in the same atomic, durable LMDB transaction as the
 * handles. Obtained from {@link HandleTable#sideTable(String)}; read and written through
 * {@link HandleView#get(SideTable, byte[])}, {@link HandleBatch#put(SideTable, byte[], byte[])} and
 * {@link HandleBatch#delete(SideTable, byte[])}.
 */
public final class SideTable {
    private final String name;
    private final Dbi<byte[]> dbi;

    SideTable(String name, Dbi<byte[]> dbi) {
        this.name = Objects.requireNonNull(name);
        this.dbi = dbi;
    }

    /** The table's name. */
    public String name() {
        return name;
    }

    Dbi<byte[]> dbi() {
        return dbi;
    }

    @Override
    public String toString() {
        return "SideTable[" + name + "]";
    }
}
