/**
 * Integration tests of issue 14, "safe on a hostile network": each attack goes through raw sockets against
 * the real server process running with a small heap ({@code -Xmx256m -XX:+ExitOnOutOfMemoryError}), and a
 * normal client checks afterwards that the server still serves. Each test prints the heap (after a full
 * GC) and the resident set of the server before and after its attack.
 */
package org.tcnfs.it.hostile;
