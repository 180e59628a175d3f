#!/usr/bin/env python3
"""Round trip of a one-op compound: times RPC calls sent one at a time on one TCP connection.

Usage: rtt-probe.py [--calls N] [--rounds R] NAME=PORT[/DIR/DIR...]...

For every round and every server (in the order given, so that servers are interleaved and share the machine's
load alike), it sends N NULL calls, then N NFSv4.0 COMPOUNDs of PUTROOTFH+GETATTR, each after the reply to the
one before (after a warm-up of N/4 of each), and prints one line per server and call kind: the median, p90 and
mean round trip in microseconds, pooled over the rounds. AUTH_NONE, no client state: any NFSv4 server answers.
With a path after the port, it also times a path walk the way libnfs sends one: PUTROOTFH, one LOOKUP per name of
the path, GETFH, GETATTR in one COMPOUND, with AUTH_SYS as root (the directories must exist).
"""
import argparse
import socket
import struct
import time


def record(body):
    return struct.pack('>I', 0x80000000 | len(body)) + body


def call(xid, proc, args, sys_auth=False):
    # xid, CALL, RPC version 2, program 100003, version 4, procedure, AUTH_NONE (or AUTH_SYS root) and a null verifier
    cred = struct.pack('>II', 0, 0)
    if sys_auth:
        body = struct.pack('>II', 0, 4) + b'rtt\0' + struct.pack('>III', 0, 0, 0)  # stamp, machine, uid, gid, no gids
        cred = struct.pack('>II', 1, len(body)) + body
    return struct.pack('>IIIIII', xid, 0, 2, 100003, 4, proc) + cred + struct.pack('>II', 0, 0) + args


def compound_args():
    ops = struct.pack('>I', 24)  # PUTROOTFH
    ops += struct.pack('>I', 9) + struct.pack('>III', 2, 0x0010011a, 0x00b0a23a)  # GETATTR, type size fsid fileid ...
    return struct.pack('>III', 0, 0, 2) + ops  # empty tag, minor version 0, 2 operations


def walk_args(names):
    ops = struct.pack('>I', 24)  # PUTROOTFH
    for name in names:
        b = name.encode()
        ops += struct.pack('>II', 15, len(b)) + b + b'\0' * (-len(b) % 4)  # LOOKUP
    ops += struct.pack('>I', 10)  # GETFH
    ops += struct.pack('>I', 9) + struct.pack('>III', 2, 0x0010011a, 0x00b0a23a)  # GETATTR
    return struct.pack('>III', 0, 0, len(names) + 3) + ops


def read_record(sock):
    head = b''
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            raise ConnectionError('closed')
        head += chunk
    n = struct.unpack('>I', head)[0] & 0x7fffffff
    body = b''
    while len(body) < n:
        chunk = sock.recv(n - len(body))
        if not chunk:
            raise ConnectionError('closed')
        body += chunk
    return body


def times(port, n, proc, walk=None):
    sock = socket.create_connection(('127.0.0.1', port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    args = walk_args(walk) if walk else compound_args() if proc == 1 else b''
    out = []
    try:
        for i in range(n):
            t = time.perf_counter()
            sock.sendall(record(call(i + 1, proc, args, walk is not None)))
            reply = read_record(sock)
            out.append(time.perf_counter() - t)
            # accepted, SUCCESS (and for COMPOUND: NFS4_OK)
            if struct.unpack('>I', reply[8:12])[0] != 0 or struct.unpack('>I', reply[20:24])[0] != 0:
                raise RuntimeError('call %d to port %d refused' % (i, port))
            if proc == 1 and struct.unpack('>I', reply[24:28])[0] != 0:
                raise RuntimeError('COMPOUND %d to port %d failed: status %d' % (
                    i, port, struct.unpack('>I', reply[24:28])[0]))
    finally:
        sock.close()
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--calls', type=int, default=2000)
    p.add_argument('--rounds', type=int, default=2)
    p.add_argument('servers', nargs='+', metavar='NAME=PORT')
    a = p.parse_args()
    servers = []
    for spec in a.servers:
        name, target = spec.split('=', 1)
        port, _, path = target.partition('/')
        servers.append((name, int(port), [n for n in path.split('/') if n]))
    kinds = [(0, None, 'NULL'), (1, None, 'PUTROOTFH+GETATTR')]
    pooled = {}
    for _ in range(a.rounds):
        for name, port, walk in servers:
            mine = kinds + ([(1, walk, 'walk of %d names' % len(walk))] if walk else [])
            for proc, w, label in mine:
                times(port, max(1, a.calls // 4), proc, w)
                pooled.setdefault((name, label), []).extend(times(port, a.calls, proc, w))
    for name, _, _ in servers:
        for (n, label), lat in pooled.items():
            if n != name:
                continue
            lat = sorted(lat)
            print('%-12s %-18s median %5.0f us  p90 %5.0f us  mean %5.0f us  (%d calls)' % (
                name, label, lat[len(lat) // 2] * 1e6,
                lat[int(len(lat) * 0.9)] * 1e6, sum(lat) / len(lat) * 1e6, len(lat)))


if __name__ == '__main__':
    main()
