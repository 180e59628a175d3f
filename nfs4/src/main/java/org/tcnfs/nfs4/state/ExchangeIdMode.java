package org.tcnfs.nfs4.state;

/** Whether EXCHANGE_ID creates or updates a client record ({@code EXCHGID4_FLAG_UPD_CONFIRMED_REC_A}). */
public enum ExchangeIdMode {
    /** Create a client record, or find the one that exists (flag clear). */
    CREATE,
    /** Update an existing confirmed client record (flag set). */
    UPDATE
}
