#!/usr/bin/env bash
# Test set-up (run by `npm test`): the PostgreSQL feed-store suite needs Debian's postgresql server
# binaries. Installs them when missing; the tests start their own temporary cluster.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
echo "test set-up: installing Debian's postgresql for the PostgreSQL store tests" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
