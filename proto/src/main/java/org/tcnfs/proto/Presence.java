package org.tcnfs.proto;

/** Whether a name existed when a pre-image was captured. */
public enum Presence {
    /** The name named an object. */
    PRESENT,
    /** The name was free. */
    ABSENT
}
