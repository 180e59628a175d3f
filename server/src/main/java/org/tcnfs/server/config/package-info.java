/**
 * Server configuration: {@link org.tcnfs.server.config.Setting} documents every key with its default,
 * {@link org.tcnfs.server.config.ConfigLoader} merges defaults, file, environment and flags into a validated,
 * immutable {@link org.tcnfs.server.config.ServerConfig}. Loading is single-threaded; the record is immutable.
 */
package org.tcnfs.server.config;
