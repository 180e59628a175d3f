/** Protobuf records of tcnfs: recovery records and pre-images (the transaction layer's durable state). */
package org.tcnfs.proto;
