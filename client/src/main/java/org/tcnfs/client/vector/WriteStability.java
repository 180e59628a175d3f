package org.tcnfs.client.vector;

/** How the WRITEs of a {@link VnfsClient} ask the server to store data ({@code stable_how4}). */
public enum WriteStability {
    /** FILE_SYNC4: data and metadata on stable storage before each WRITE is answered (the default). */
    FILE_SYNC(2),
    /**
     * UNSTABLE4: the server may answer before the data is on disk and no COMMIT follows; a server crash can lose
     * the data of plain writes. (tcnfs makes a committed transaction's data durable whatever this says.)
     */
    UNSTABLE(0);

    private final int stableHow;

    WriteStability(int stableHow) {
        this.stableHow = stableHow;
    }

    /** The {@code stable_how4} value. */
    int stableHow() {
        return stableHow;
    }
}
