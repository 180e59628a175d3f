#!/usr/bin/env python3
"""Sends N NFSv4.0 COMPOUNDs of one kind to a server, one at a time on one connection (issue 16, the path walks of
scripts/bench-walk.sh), and prints the mean round trip in microseconds. Kinds, for the path DIR/DIR/.../NAME below
the root (which must exist):
  walk   PUTROOTFH, one LOOKUP per name, GETFH, GETATTR (how libnfs resolves a path)
  putfh  PUTFH of the last name's handle, GETATTR (a handle resolved in a new compound)
  steps  per name, PUTFH of its directory, LOOKUP, GETFH, GETATTR (one LOOKUP per compound; N counts compounds)
usage: walk-probe.py PORT PATH KIND N"""
import importlib.util
import os
import struct
import sys
import time

spec = importlib.util.spec_from_file_location('rtt_probe', os.path.join(os.path.dirname(__file__), 'rtt-probe.py'))
rtt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rtt)

GETATTR = struct.pack('>I', 9) + struct.pack('>III', 2, 0x0010011a, 0x00b0a23a)


def lookup(name):
    b = name.encode()
    return struct.pack('>II', 15, len(b)) + b + b'\0' * (-len(b) % 4)


def putfh(fh):
    return struct.pack('>II', 22, len(fh)) + fh + b'\0' * (-len(fh) % 4)


def compound(ops):
    return struct.pack('>III', 0, 0, len(ops)) + b''.join(ops)


def run(sock, xid, args):
    sock.sendall(rtt.record(rtt.call(xid, 1, args, True)))
    reply = rtt.read_record(sock)
    if struct.unpack('>I', reply[24:28])[0] != 0:
        raise RuntimeError('COMPOUND failed: status %d' % struct.unpack('>I', reply[24:28])[0])
    return reply


def handle_of(reply):
    """The handle of the GETFH that ends a reply of PUTROOTFH or PUTFH, LOOKUPs, GETFH (no tag)."""
    at = 28 + 4 + 4  # status, tag length 0, number of results
    count = struct.unpack('>I', reply[32:36])[0]
    for _ in range(count - 1):
        at += 8  # op, status of PUTROOTFH / PUTFH / LOOKUP
    length = struct.unpack('>I', reply[at + 8:at + 12])[0]
    return reply[at + 12:at + 12 + length]


def main():
    port, path, kind, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    names = [x for x in path.split('/') if x]
    sock = rtt.socket.create_connection(('127.0.0.1', port))
    sock.setsockopt(rtt.socket.IPPROTO_TCP, rtt.socket.TCP_NODELAY, 1)
    handles = [handle_of(run(sock, 1, compound([struct.pack('>I', 24), struct.pack('>I', 10)])))]
    for name in names:
        handles.append(handle_of(run(sock, 1, compound([putfh(handles[-1]), lookup(name), struct.pack('>I', 10)]))))
    if kind == 'walk':
        calls = [compound([struct.pack('>I', 24)] + [lookup(x) for x in names] + [struct.pack('>I', 10), GETATTR])]
    elif kind == 'putfh':
        calls = [compound([putfh(handles[-1]), GETATTR])]
    else:
        calls = [compound([putfh(handles[i]), lookup(x), struct.pack('>I', 10), GETATTR]) for i, x in enumerate(names)]
    t = time.perf_counter()
    for i in range(n):
        run(sock, i + 2, calls[i % len(calls)])
    print('%s %d calls: mean %.0f us' % (kind, n, (time.perf_counter() - t) / n * 1e6))
    sock.close()


if __name__ == '__main__':
    main()
