#!/usr/bin/env bash
# Test set-up (`npm test`'s pretest step): Debian packages the tests drive as real peers. PostgreSQL server
# binaries for the feed-store suite (the tests start their own temporary cluster) and python3-feedparser,
# an independent RSS reader. Installed only when missing.
set -euo pipefail
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
/usr/bin/python3 -c "import feedparser" >/dev/null 2>&1 || need+=(python3-feedparser)
if [ ${#need[@]} -eq 0 ]; then
  echo "test set-up: PostgreSQL and python3-feedparser present; nothing to install" >&2
  exit 0
fi
echo "test set-up: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
