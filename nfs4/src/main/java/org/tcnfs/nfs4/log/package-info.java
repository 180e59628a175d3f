/**
 * Logging helpers: {@link org.tcnfs.nfs4.log.RateLimitedLog} keeps lines caused by clients (bad requests,
 * refused connections) from flooding the log, and says how many it left out.
 */
package org.tcnfs.nfs4.log;
