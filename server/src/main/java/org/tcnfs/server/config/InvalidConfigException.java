package org.tcnfs.server.config;

/** A setting has a value the server refuses; the message names the setting and where the value came from. */
public final class InvalidConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidConfigException(String message) {
        super(message);
    }
}
