#!/usr/bin/env bash
# Starts Debian's PostgreSQL on 127.0.0.1 with a `vizier` role and an empty `vizier_test`
# database, and prints the URL for VIZIER_TEST_POSTGRES. Installs the package if missing.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null 2>&1
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
su postgres -c "psql -q -h 127.0.0.1 -c \"DROP DATABASE IF EXISTS vizier_test\"" >/dev/null 2>&1 ||
  su postgres -c "psql -q -c \"DROP DATABASE IF EXISTS vizier_test\""
su postgres -c "psql -q -c \"DO \\\$\\\$ BEGIN CREATE ROLE vizier LOGIN PASSWORD 'vizier'; EXCEPTION WHEN duplicate_object THEN NULL; END \\\$\\\$\""
su postgres -c "createdb -O vizier vizier_test"
echo "postgres://vizier:vizier@127.0.0.1:5432/vizier_test"
