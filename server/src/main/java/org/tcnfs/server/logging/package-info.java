/**
 * Logback additions of the server's fat jar (its {@code logback.xml} names them): filters that keep lines a
 * client can cause at will, in libraries the server uses unchanged, from flooding the log.
 *
 * <p>Contents: {@link org.tcnfs.server.logging.ClosedConnectionReplyFilter}. Thread-safe. Nothing here is
 * loaded unless logback is the SLF4J provider and its configuration names it.
 */
package org.tcnfs.server.logging;
