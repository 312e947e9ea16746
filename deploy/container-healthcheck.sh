#!/usr/bin/env bash
# The container image's HEALTHCHECK: GET /healthz on the port and scheme the service was given
# through its environment (CLONER_PORT, CLONER_TLS_CERT), so a changed port or TLS does not turn a
# healthy container unhealthy. No curl in the image: plain HTTP goes through bash's /dev/tcp, HTTPS
# through `openssl s_client` (the certificate is not verified: this checks the service, not the PKI).
set -u
port=${CLONER_PORT:-8080}
host=${CLONER_HOST:-0.0.0.0}
case "$host" in 0.0.0.0 | :: | "") host=127.0.0.1 ;; esac
request=$'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'
if [ -n "${CLONER_TLS_CERT:-}" ]; then
  status=$(printf '%s' "$request" | timeout 3 openssl s_client -quiet -connect "$host:$port" -servername localhost 2>/dev/null | head -n1)
else
  status=$(exec 3<>"/dev/tcp/$host/$port" && printf '%s' "$request" >&3 && timeout 3 head -n1 <&3)
fi
case "$status" in
  *" 200 "*) exit 0 ;;
esac
echo "GET /healthz on $host:$port${CLONER_TLS_CERT:+ (TLS)} answered: ${status:-nothing}" >&2
exit 1
