#!/bin/bash
# Container health check of the tcnfs image: healthy when GET /health on the metrics port answers 200.
# With the HTTP endpoints off (TCNFS_METRICS_PORT=off), healthy when the NFS port accepts a connection.
# Needs only bash (its /dev/tcp), so the image carries no HTTP client. Exit 0: healthy, 1: not.
set -uo pipefail

host=127.0.0.1
case "${TCNFS_BIND:-0.0.0.0}" in
  0.0.0.0 | :: | "") ;;
  *) host=$TCNFS_BIND ;;
esac
metrics_port=${TCNFS_METRICS_PORT:-9049}

if [[ ${metrics_port,,} == off ]]; then
  if timeout 5 bash -c "exec 3<>/dev/tcp/$host/${TCNFS_PORT:-2049}" 2>/dev/null; then
    exit 0
  fi
  echo "NFS port ${TCNFS_PORT:-2049} on $host does not accept connections"
  exit 1
fi

status=$(timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2" \
    && printf "GET /health HTTP/1.0\r\nHost: %s\r\n\r\n" "$1" >&3 \
    && IFS= read -r line <&3 && printf "%s" "$line"' health "$host" "$metrics_port" 2>/dev/null)
status=${status%$'\r'}

if [[ $status == HTTP/1.?" 200"* ]]; then
  exit 0
fi
echo "GET http://$host:$metrics_port/health: ${status:-no answer}"
exit 1
