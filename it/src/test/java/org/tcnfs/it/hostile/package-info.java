/**
 * Attacks on the network side of a real server process with a small heap ({@code -Xmx256m
 * -XX:+ExitOnOutOfMemoryError}) through raw sockets: each test attacks, checks what the server did, and that a
 * normal client is served during the attack and within a second after it. {@link org.tcnfs.it.hostile.Hostile}
 * holds the raw RPC encoding, the normal client probe and the heap and RSS measurements they print.
 */
package org.tcnfs.it.hostile;
