/**
 * Integration tests of issue 14, "safe on a hostile network": each attack goes through raw sockets against
 * the real server process running with a small heap ({@code -Xmx256m -XX:+ExitOnOutOfMemoryError}), checks what
 * the server did, and that a normal client is served during the attack and within a second after it. Each test
 * prints the heap (after a full GC) and the resident set of the server before and after its attack.
 * {@link org.tcnfs.it.hostile.Hostile} holds the raw RPC encoding, the normal client probe and the heap and RSS
 * measurements of the network attacks; {@link org.tcnfs.it.hostile.SessionAttacks} those of the session ones.
 */
package org.tcnfs.it.hostile;
