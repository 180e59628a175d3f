#!/usr/bin/env python3
"""Latency of GET /health while N half-sent HTTP requests and N silent connections hold the metrics port
(issue 14, item 5). Starts the server jar on loopback with fresh directories, measures, stops it.

usage: python3 scripts/http-slow-clients.py server/target/tcnfs-server.jar N [probes] [probe_timeout_s]
A probe that gets no 200 within probe_timeout_s (default 70) ends the run: the endpoint is frozen."""
import os, shutil, socket, subprocess, sys, tempfile, time, statistics
jar, n = sys.argv[1], int(sys.argv[2])
probes = int(sys.argv[3]) if len(sys.argv) > 3 else 30
timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 70.0
base = tempfile.mkdtemp(prefix="h-ops-measure-")
pf, mpf = os.path.join(base, "port"), os.path.join(base, "mport")
srv = subprocess.Popen(["java", "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar", jar, "--bind", "127.0.0.1",
    "--port", "0", "--port-file", pf, "--metrics-port", "0", "--metrics-port-file", mpf, "--data",
    os.path.join(base, "data"), "--state", os.path.join(base, "state"), "--grace", "0"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(600):
        if os.path.exists(pf) and open(pf).read().strip():
            break
        time.sleep(0.1)
    port = int(open(mpf).read())
    def probe():
        t = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
                s.settimeout(timeout)
                s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                line = s.makefile("rb").readline()
                ok = line.startswith(b"HTTP/1.1 200")
        except OSError:
            ok = False
        return (time.monotonic() - t) * 1000, ok
    before = [probe()[0] for _ in range(5)]
    held = []
    for _ in range(n):
        h = socket.create_connection(("127.0.0.1", port)); h.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n"); held.append(h)
        held.append(socket.create_connection(("127.0.0.1", port)))
    time.sleep(0.2)
    res = []
    t0 = time.monotonic()
    for i in range(probes):
        res.append(probe())
        if res[-1][1] is False or res[-1][0] > 5000:
            break   # the endpoint is frozen: one long probe tells it
        time.sleep(0.1)
    lat = [r[0] for r in res]
    print(f"N={n} half-sent + {n} silent: idle median {statistics.median(before):.1f} ms; under attack: "
          f"{len(res)} probes, {sum(r[1] for r in res)} ok, median {statistics.median(lat):.1f} ms, "
          f"max {max(lat):.1f} ms")
    for h in held:
        h.close()
finally:
    srv.terminate(); srv.wait(30)
    shutil.rmtree(base, ignore_errors=True)
